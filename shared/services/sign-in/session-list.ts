/** GET /api/v1/auth/sessions, apart so only its bundle carries the User-Agent parser. */
import type * as v from 'valibot';
import type { SessionsResponse } from '#shared/schemas/sign-in.ts';
import { deviceOf } from '#shared/services/sign-in/devices.ts';
import { sessionView, type SessionDeps } from '#shared/services/sign-in/sessions.ts';

/** The user's live sessions, newest first, the current one marked. */
export async function listSessions(deps: SessionDeps, input: { userId: string; sessionId: string }): Promise<v.InferOutput<typeof SessionsResponse>> {
  const sessions = await deps.store.listSessionsOfUser(input.userId);
  return {
    sessions: sessions
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
      .map((session) => ({
        ...sessionView(session),
        device: deviceOf(session.userAgent),
        lastSeenAt: session.lastSeenAt ?? null,
        current: session.sessionId === input.sessionId,
      })),
  };
}
