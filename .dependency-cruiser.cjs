/**
 * The layering rules `npm run layers` checks (docs/architecture.md, "Layers"): what each part of
 * the code may import. `shared/platform` is the bottom: it knows no domain. `shared/wiring` is the
 * top: it composes the domains for the entry points, and nothing in `shared/` imports it.
 * `migrations/` sits above the domains (a migration rewrites their items) and below the entry
 * points that run them. `shared/http` sits on the platform, below every domain. Circles between
 * the domains themselves are found by scripts/domain-circles.ts (also in `npm run layers`).
 * @type {import('dependency-cruiser').IConfiguration}
 */
const { readFileSync, readdirSync, existsSync } = require('node:fs');

/** The files a domain's public file names with `@public ./file.js` (loaded on their own, e.g. lazily). */
const namedPublic = readdirSync('shared', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`shared/${entry.name}/index.ts`))
  .flatMap((entry) =>
    [...readFileSync(`shared/${entry.name}/index.ts`, 'utf8').matchAll(/@public \.\/([\w./-]+)\.js/g)].map(
      (match) => `^shared/${entry.name}/${match[1].replace(/[.]/g, '[.]')}[.]ts$`,
    ),
  );

module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-domain',
      comment: 'shared/platform is the bottom layer: the domains build on it, never the other way round.',
      severity: 'error',
      from: { path: '^shared/platform/' },
      to: { path: '^(shared/(?!platform/)|migrations/)' },
    },
    {
      name: 'http-imports-no-domain',
      comment:
        'shared/http is the web layer every domain builds its routes on (router, placement, schemas, SSE, body rules): it imports no domain at run time. Who calls (authenticate) and the route table compose the domains, in shared/wiring.',
      severity: 'error',
      from: { path: '^shared/http/' },
      to: { path: '^(shared/(?!platform/|http/)|migrations/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'wiring-is-the-top',
      comment: 'shared/wiring composes the domains for the entry points (bin/, functions/); no domain may import it.',
      severity: 'error',
      from: { path: '^(shared|migrations)/', pathNot: '^shared/wiring/' },
      to: { path: '^shared/wiring/' },
    },
    {
      name: 'migrations-only-from-entry-points',
      comment: 'Migrations run before a version serves (bin/local-runtime.ts, functions/migrate/): no domain imports them.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^migrations/' },
    },
    {
      name: 'domains-meet-at-their-public-file',
      comment:
        "A domain reaches another only through that domain's public file, shared/<domain>/index.ts, which re-exports what the rest may use and may name a file of its own to import apart (`@public ./web.js`, for a module loaded lazily). shared/platform and shared/http are layers below every domain (their files are all public); shared/wiring is the composition root above them (it mounts each domain's routes and job handlers, which no other domain imports).",
      severity: 'error',
      from: { path: '^shared/([^/.]+)/', pathNot: '^shared/(platform|http|wiring)/' },
      to: {
        path: '^shared/[^/.]+/',
        pathNot: ['^shared/$1/', '^shared/(platform|http|wiring)/', '^shared/[^/.]+/index[.]ts$', ...namedPublic],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
