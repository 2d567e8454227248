// Import-graph rules, checked by `npm run lint` (`depcruise src --config .dependency-cruiser.cjs`).
// Layering: ../shared/design/architecture.md "Code layout" and reference/aesthetics-anchors.md §5.2, §5.8.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Circular imports: Nest module imports must form a DAG (no forwardRef), and entity cycles break ' +
        'emitDecoratorMetadata at load time. Put sub-collection routes in the child module, or enqueue a job ' +
        'that src/sync handles (aesthetics-anchors.md §5.8). Cycles made only of `import type` edges are allowed: ' +
        'they vanish from the emitted JavaScript.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'infrastructure-not-to-modules',
      severity: 'error',
      comment:
        'src/vcs, src/formats and src/jobs are infrastructure that resource modules import; they never ' +
        'import src/modules/** (architecture.md "Code layout").',
      from: { path: '^src/(vcs|formats|jobs)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'common-only-to-entities',
      severity: 'error',
      comment:
        'src/common is cross-cutting and depends on no resource module; it may only use entity classes ' +
        '(access-filtered lookups in common/auth resolve project/component/translation from entities).',
      from: { path: '^src/common/' },
      to: { path: '^src/modules/', pathNot: '\\.entity\\.ts$' },
    },
    {
      name: 'no-foreign-controller',
      severity: 'error',
      comment:
        "A module never imports another module's controller; share a service or a mapper instead " +
        '(aesthetics-anchors.md §5.8).',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/.+\\.controller\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'src-not-to-test',
      severity: 'error',
      comment: 'Application code must not import test helpers from test/ (they are not built or shipped).',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment:
        'The production image installs dependencies only (npm ci --omit=dev): code outside tests must not ' +
        'import a devDependency. Type-only imports are fine (they are erased).',
      from: { path: '^src/', pathNot: ['\\.(e2e-)?spec\\.ts$', '/testing/'] },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-non-package-json',
      severity: 'error',
      comment: 'Imports an npm package that package.json does not declare (works only by hoisting luck).',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Imports something that cannot be resolved on disk (typo, missing file, or an undeclared package).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Count `import type` edges too, so the graph matches the source rather than the emitted JavaScript.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
