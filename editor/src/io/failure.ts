/** What the editor knows of an API failure, and what it says of one: the words live in problem-text.ts and account-problems.ts. */

/** The fields of an API failure the words depend on (an {@link ApiError} has them). */
export interface Failure {
  status: number;
  code: string;
  message: string;
  /** The route called, which says what the user was doing. */
  path?: string;
  retryAfter?: number;
  /** The envelope's extended fields (requiredPlan, quota, …). */
  extra?: Readonly<Record<string, unknown>>;
}

export interface Explanation {
  /** What happened, in one sentence. */
  message: string;
  /** What to do about it. */
  advice: string;
}
