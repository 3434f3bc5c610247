/** The shots a run request asks for: its list or the release's sourceUrls, times the matrix, checked whole. */
import * as v from 'valibot';
import { InvalidRequestError } from '#shared/errors.ts';
import type { Release } from '#shared/schemas/releases.ts';
import { MAX_CAPTURE_PIXELS } from '#shared/schemas/screenshot.ts';
import { MAX_SHOTS_PER_RUN, Shot } from '#shared/schemas/shots.ts';
import type { ShotRunRequest } from '#shared/schemas/shots.ts';
import { DEVICES, SCREEN_PX, viewportPixels } from '#shared/services/capture/devices.ts';

/** A shot to queue, with where it came from for the hints. */
export interface PlannedShot extends Shot {
  /** `shots[3]`, or `sourceUrls[1]` of the release. */
  from: string;
}

const SLUG_LENGTH = 80;
export { SCREEN_PX };

/** A shot name from a URL's host and path: `example.com-pricing`. */
export function nameOfUrl(url: string): string {
  const { host, pathname } = new URL(url);
  const slug = `${host}${pathname}`
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+|-+$/g, '')
    .slice(0, SLUG_LENGTH);
  return slug || 'page';
}

/** One default shot per source URL, each named after it (`-2`, `-3` where two would share a name). */
function sourceShots(release: Release): PlannedShot[] {
  const taken = new Map<string, number>();
  return release.sourceUrls.map((url, index) => {
    const base = nameOfUrl(url);
    const seen = (taken.get(base) ?? 0) + 1;
    taken.set(base, seen);
    const from = `sourceUrls[${index}]`;
    const parsed = v.safeParse(Shot, { name: seen === 1 ? base : `${base}-${seen}`, url });
    if (!parsed.success) {
      throw new InvalidRequestError(`Invalid ${from} of the release`, `${from}: ${parsed.issues[0].message}. Send shots with the URLs to capture instead.`);
    }
    return { ...parsed.output, from };
  });
}

/** Each shot once per device type and colour scheme of the matrix, named by the dimensions it has. */
function multiply(shots: PlannedShot[], matrix: NonNullable<ShotRunRequest>['matrix']): PlannedShot[] {
  if (!matrix) return shots;
  return shots.flatMap((shot) =>
    (matrix.deviceTypes ?? [shot.deviceType]).flatMap((deviceType) =>
      (matrix.colorSchemes ?? [shot.colorScheme]).map((colorScheme) => {
        const suffix = [...(matrix.deviceTypes ? [deviceType] : []), ...(matrix.colorSchemes ? [colorScheme] : [])];
        return { ...shot, name: [shot.name, ...suffix].join('-'), deviceType, colorScheme };
      }),
    ),
  );
}

/** As POST /api/screenshot refuses it: a viewport that at its scale is larger than one picture of the screen. */
function checkViewport(shot: PlannedShot): void {
  if (!shot.viewport) return;
  const scale = shot.scale ?? DEVICES[shot.deviceType].deviceScaleFactor;
  const { width, height, fits } = viewportPixels(shot.viewport, scale);
  if (fits) return;
  throw new InvalidRequestError(
    `Invalid ${shot.from}.viewport`,
    `${shot.from}.viewport: ${shot.viewport.width}×${shot.viewport.height} at scale ${scale} (${shot.deviceType}) is ${width}×${height} image pixels; a screen is at most ${SCREEN_PX} pixels a side and ${MAX_CAPTURE_PIXELS} in all.`,
  );
}

/** The run's shots, or 400 naming the shot and field: none to take, too many, a name twice, a viewport too large. */
export function planShots(release: Release, request: ShotRunRequest): PlannedShot[] {
  const given = request?.shots?.map((shot, index) => ({ ...shot, from: `shots[${index}]` }));
  if (!given && release.sourceUrls.length === 0) {
    throw new InvalidRequestError('No shots to run', 'shots: this release has no sourceUrls to photograph; send the shots to capture.');
  }
  const listed = given ?? sourceShots(release);
  const shots = multiply(listed, request?.matrix);
  if (shots.length > MAX_SHOTS_PER_RUN) {
    throw new InvalidRequestError(
      'Too many shots',
      `shots: ${listed.length} shots × the matrix make ${shots.length}; a run takes at most ${MAX_SHOTS_PER_RUN}. Split them over several runs.`,
    );
  }
  const names = new Map<string, string>();
  for (const shot of shots) {
    const first = names.get(shot.name);
    if (first !== undefined) {
      throw new InvalidRequestError(
        `Duplicate shot name ${shot.name}`,
        `${shot.from}.name: "${shot.name}" is also the name of ${first}${request?.matrix ? ' once the matrix names them' : ''}; give each shot its own name.`,
      );
    }
    names.set(shot.name, shot.from);
    checkViewport(shot);
  }
  return shots;
}
