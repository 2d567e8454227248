// The single DataSource definition lives in src/database/data-source.ts; this file re-exports it for
// tools that look for ormconfig at the project root.
export { default } from './src/database/data-source';
