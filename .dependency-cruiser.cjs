/**
 * The layering rules `npm run layers` checks (docs/architecture.md, "Layers"): what each part of
 * the code may import. `shared/platform` is the bottom: it knows no domain. `shared/wiring` is the
 * top: it composes the domains for the entry points, and nothing in `shared/` imports it.
 * `migrations/` sits above the domains (a migration rewrites their items) and below the entry
 * points that run them.
 * @type {import('dependency-cruiser').IConfiguration}
 */
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
