/**
 * The Releases tab's plain logic: who may see it, how often it asks again while shots run, and
 * each shot in words (status, size, what changed) and as a source of the editor.
 */

/** GET /api/v1/releases/{releaseId}/shots's statuses (shared/schemas/shots.ts; a unit test holds them equal). */
export const SHOT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ShotStatus = (typeof SHOT_STATUSES)[number];

/** What the tab reads of a release (GET /api/v1/releases). */
export interface ReleaseItem {
  id: string;
  title: string;
  createdAt: string;
}

export interface ReleasePage {
  releases: ReleaseItem[];
  nextCursor?: string;
}

/** A failed shot's error, as far as the editor reads it: the envelope POST /api/screenshot would have answered. */
export interface ShotError {
  status: number;
  code: string;
  message: string;
  hint: string;
  documentation?: string;
}

/** What changed since the release compared with (its picture is not read here: the diff shows it). */
export interface ShotChanges {
  baseline: { releaseId: string };
  ratio: number;
  pixels: number;
  width: number;
  height: number;
  sizeChanged: boolean;
  diffAssetId: string;
}

/** What the tab reads of a shot (docs/shots.md); a unit test holds it to the API's ShotView. */
export interface ShotItem {
  name: string;
  url: string;
  deviceType: 'desktop' | 'mobile';
  colorScheme: 'light' | 'dark';
  status: ShotStatus;
  runId: string;
  queuedAt: string;
  finishedAt?: string;
  attempts?: number;
  assetId?: string;
  bytes?: number;
  width?: number;
  height?: number;
  drawnUrl?: string;
  truncated?: boolean;
  redactionCount?: number;
  changes?: ShotChanges;
  error?: ShotError;
}

export type ShotCounts = Record<ShotStatus, number>;

export interface ReleaseShots {
  releaseId: string;
  counts: ShotCounts;
  shots: ShotItem[];
}

/** What the session lets the tab show: the list, or why not (and whether signing in would help). */
export interface ReleasesAccess {
  open: boolean;
  text: string;
  offerSignIn: boolean;
}

/** The permission that reads releases and their pictures (docs/identity.md). */
export const READ_PERMISSION = 'artifact:read';

export function releasesAccess(account: {
  state: 'checking' | 'signed-out' | 'signed-in' | 'unavailable';
  organization?: string;
  permissions?: readonly string[];
}): ReleasesAccess {
  const closed = (text: string, offerSignIn = false) => ({ open: false, text, offerSignIn });
  switch (account.state) {
    case 'checking':
      return closed('Checking sign-in…');
    case 'unavailable':
      return closed('Releases are unavailable: the API did not say who is signed in.');
    case 'signed-out':
      return closed('Sign in to see your organization’s releases and open their shots.', true);
  }
  if (account.organization === undefined) return closed('Accept an invitation or choose an organization (account menu) to see its releases.');
  if (!account.permissions?.includes(READ_PERMISSION)) {
    return closed(`Your role in ${account.organization} cannot read releases (${READ_PERMISSION}): choose another organization, or ask an owner.`);
  }
  return { open: true, text: `Releases of ${account.organization}, newest first.`, offerSignIn: false };
}

/** Waits between reads while shots are queued or running: quick at first, then slower while nothing moves. */
export const POLL_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000] as const;

/** The wait after `quietReads` reads in a row that saw no shot move. */
export function pollDelay(quietReads: number): number {
  return POLL_DELAYS_MS[Math.min(Math.max(0, quietReads), POLL_DELAYS_MS.length - 1)]!;
}

/** Whether any shot may still change: the tab stops asking once none is queued or running. */
export function unsettled(counts: ShotCounts): boolean {
  return counts.queued + counts.running > 0;
}

/** Where each shot is; two reads with the same one saw nothing move. */
export function progressKey(shots: readonly ShotItem[]): string {
  return shots.map((shot) => `${shot.name}:${shot.runId}:${shot.status}:${shot.attempts ?? 0}`).join('|');
}

/** "3 shots: 1 running, 2 done". */
export function countsText(counts: ShotCounts): string {
  const total = SHOT_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  if (total === 0) return 'No shots in this release yet: a run (POST …/shots, docs/shots.md) takes them.';
  const parts = SHOT_STATUSES.filter((status) => counts[status] > 0).map((status) => `${counts[status]} ${status}`);
  return `${total} ${total === 1 ? 'shot' : 'shots'}: ${parts.join(', ')}.`;
}

export function statusText(shot: Pick<ShotItem, 'status' | 'attempts'>): string {
  switch (shot.status) {
    case 'queued':
      return 'Queued';
    case 'running':
      return shot.attempts !== undefined && shot.attempts > 1 ? `Running, try ${shot.attempts}` : 'Running';
    case 'done':
      return 'Done';
    case 'failed':
      return 'Failed';
  }
}

/** "desktop, light". */
export function framingText(shot: Pick<ShotItem, 'deviceType' | 'colorScheme'>): string {
  return `${shot.deviceType}, ${shot.colorScheme}`;
}

/** A share of pixels: "0 %", "< 0.01 %", "3.21 %", "100 %". */
export function percentText(ratio: number): string {
  if (ratio <= 0) return '0 %';
  if (ratio < 0.0001) return '< 0.01 %';
  return `${(ratio * 100).toLocaleString('en', { maximumFractionDigits: 2 })} %`;
}

/** What changed since the release compared with, for a done shot; '' for the others. */
export function changeText(shot: Pick<ShotItem, 'status' | 'changes'>, titleOf: (releaseId: string) => string | undefined): string {
  if (shot.status !== 'done') return '';
  const { changes } = shot;
  if (!changes) return 'First of its name: nothing earlier to compare with.';
  const title = titleOf(changes.baseline.releaseId);
  const since = title === undefined ? 'since an earlier release' : `since ${title}`;
  if (changes.pixels === 0) return `No pixel changed ${since}.`;
  return `${percentText(changes.ratio)} of pixels changed ${since}${changes.sizeChanged ? ', and its size' : ''}.`;
}

/** A picture's pixel size, when the shot has one. */
export function dimensionsText(shot: Pick<ShotItem, 'width' | 'height'>): string {
  return shot.width !== undefined && shot.height !== undefined ? `${shot.width} × ${shot.height} px` : '';
}

/**
 * A done shot as the editor's source: named by its shot, release, framing and when it was taken,
 * so the Recent list tells runs apart. A phone shot is drawn at 2, as a phone capture is.
 */
export function shotSource(shot: ShotItem, release: Pick<ReleaseItem, 'title'>, when: string) {
  const page = shot.drawnUrl ?? shot.url;
  return {
    kind: 'shot' as const,
    density: shot.deviceType === 'mobile' ? 2 : 1,
    title: page.replace(/^https?:\/\//, ''),
    description: `shot ${shot.name} of ${release.title} (${framingText(shot)}, ${when})`,
  };
}

/** The next page of releases after the ones shown, each once. */
export function appendReleases(shown: readonly ReleaseItem[], page: readonly ReleaseItem[]): ReleaseItem[] {
  const seen = new Set(shown.map((release) => release.id));
  return [...shown, ...page.filter((release) => !seen.has(release.id))];
}
