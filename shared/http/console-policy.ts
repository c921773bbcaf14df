/**
 * The console's pages may load only the console's own files and talk only to this origin: a
 * script injected through text the API returns (a tool's output shown in a transcript) has nowhere
 * to send anything. The local runtime sets it (bin/console.ts), and CloudFront on AWS (lib/console.ts).
 */
export const CONSOLE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};
