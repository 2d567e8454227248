import { heapFlagsFor } from './heap-flags';

// Prints the heap limits for this environment's database on one line, for the container's entrypoint
// (scripts/container-entrypoint.sh), which puts them in NODE_OPTIONS before it starts the server.
process.stdout.write(`${heapFlagsFor(process.env).join(' ')}\n`);
