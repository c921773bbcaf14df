import { type ComponentProps, isValidElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './copy';

/*
 * The renderer behind `Markdown` (markdown.tsx), loaded lazily. react-markdown builds React
 * elements, never HTML strings: raw HTML in the text is shown as text (no rehype-raw), so neither
 * the model nor a tool can put markup or scripts on the page.
 */

const SAFE_LINK = /^(https?:|mailto:)/i;

/** Only http(s) and mailto links survive; any other (javascript:, data:, relative) becomes plain text. */
function safeUrl(url: string): string {
  return SAFE_LINK.test(url.trim()) ? url : '';
}

/** The text of a code block's children, for its Copy button. */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return '';
}

function Link({ href, children }: ComponentProps<'a'>) {
  if (!href) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/** A fenced code block, with a button that copies its text. */
function CodeBlock({ children }: ComponentProps<'pre'>) {
  const code = textOf(children).replace(/\n$/, '');
  return (
    <div className="markdown-code">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: code wider than the answer scrolls, so it must be reachable by keyboard. */}
      <pre tabIndex={0}>{children}</pre>
      <CopyButton value={code} what="the code" />
    </div>
  );
}

/** A table scrolls inside its own region on narrow screens. */
function Table({ children }: ComponentProps<'table'>) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section className="markdown-table" tabIndex={0} aria-label="Table">
      <table>{children}</table>
    </section>
  );
}

const components: Components = {
  a: ({ node: _node, ...props }) => <Link {...props} />,
  pre: ({ node: _node, ...props }) => <CodeBlock {...props} />,
  table: ({ node: _node, ...props }) => <Table {...props} />,
  img: ({ alt }) => <span>{alt}</span>,
};

export default function MarkdownView({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} urlTransform={safeUrl}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
