/**
 * Stands in for `@smithy/core/event-streams` in bundles whose SDK clients have no operation that
 * streams events (see eventStreamsReachable() in easel-function.ts): there, nothing can load it.
 */
export {};
throw new Error('@smithy/core/event-streams is left out of this bundle: infra/constructs/easel-function.ts found no SDK client in it that streams events');
