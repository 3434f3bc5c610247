/**
 * Stands in for `@smithy/core/event-streams` in bundles that name no SDK operation streaming events
 * (entryNeeds() in easel-function.ts). S3's client wires it in when built; only such an operation uses it.
 */
const LEFT_OUT = '@smithy/core/event-streams is left out of this bundle: infra/constructs/easel-function.ts found no SDK operation in it that streams events';

const leftOut = (): never => {
  throw new Error(LEFT_OUT);
};

/** S3Client calls it at construction; the marshaller it would add serves only event-stream operations. */
export const resolveEventStreamSerdeConfig = <T>(input: T): T => input;
export const eventStreamSerdeProvider = leftOut;
export class EventStreamSerde {
  constructor() {
    leftOut();
  }
}
