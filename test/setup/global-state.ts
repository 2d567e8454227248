/** State the global setup hands to the global teardown (both run in Jest's parent process). */
export const globalState: { closeEmbedded?: () => Promise<void> } = {};
