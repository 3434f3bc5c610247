import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WorkspaceRecord, WorkspaceSettings } from '#shared/schemas/identity.ts';

const timeZone = WorkspaceSettings.entries.timeZone;

/** The check the schema made before it skipped ICU for common zones: the reference it must equal. */
function acceptedByDateTimeFormat(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const PRIMARY = Intl.supportedValuesOf('timeZone');
const OTHERS = [
  // Aliases and other spellings the constructor accepts
  'UTC',
  'utc',
  'Utc',
  'Etc/UTC',
  'etc/utc',
  'GMT',
  'gmt',
  'Etc/GMT',
  'Etc/GMT+5',
  'Etc/GMT-14',
  'Etc/GMT+12',
  'US/Pacific',
  'us/pacific',
  'Asia/Calcutta',
  'Asia/Kolkata',
  'Europe/Kiev',
  'Europe/Kyiv',
  'America/Buenos_Aires',
  'America/Argentina/Buenos_Aires',
  'EST',
  'EST5EDT',
  'Zulu',
  'Universal',
  'Etc/Zulu',
  // Offsets
  '+05:30',
  '-08:00',
  '+0530',
  '+05',
  '-00:00',
  '+14:00',
  '+24:00',
  '+05:30:00',
  '+5:30',
  // Junk
  '',
  ' ',
  ' UTC',
  'UTC ',
  'U TC',
  'Z',
  'Europe',
  'Europe/',
  '/Paris',
  'Europe//Paris',
  'Europe/Paris/',
  'Nope/Nope',
  'Etc/Unknown',
  'Factory',
  'Etc/GMT+15',
  'Etc/GMT-15',
  'Europe/Paris\u0000',
  'Europe/Pаris',
  'UTC\n',
  '\u{1F600}',
  'x'.repeat(300),
];
const CASES = [...new Set([...PRIMARY, ...PRIMARY.map((zone) => zone.toLowerCase()), ...PRIMARY.map((zone) => zone.toUpperCase()), ...OTHERS])];

describe('WorkspaceSettings.timeZone', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it(`accepts exactly what Intl.DateTimeFormat accepts (${CASES.length} values: every zone of the runtime in three cases, aliases, offsets, junk)`, () => {
    const differ = CASES.filter((value) => v.is(timeZone, value) !== acceptedByDateTimeFormat(value));
    expect(differ).toEqual([]);
    // The comparison means something only if both answers occur among the cases
    expect(CASES.filter((value) => v.is(timeZone, value)).length).toBeGreaterThan(PRIMARY.length);
    expect(CASES.filter((value) => !v.is(timeZone, value)).length).toBeGreaterThan(10);
  });

  it('accepts UTC and the primary zones without building a DateTimeFormat (≈ 15 ms of ICU data on a cold start)', () => {
    const formatSpy = vi.spyOn(Intl, 'DateTimeFormat');
    for (const zone of ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo']) expect(v.is(timeZone, zone)).toBe(true);
    expect(formatSpy).not.toHaveBeenCalled();
  });

  it.each(['US/Pacific', 'utc', '+05:30', 'Nope/Nope'])('asks Intl.DateTimeFormat about %j, which is no primary zone', (value) => {
    const formatSpy = vi.spyOn(Intl, 'DateTimeFormat');
    v.is(timeZone, value);
    expect(formatSpy).toHaveBeenCalledWith('en', { timeZone: value });
  });
});

describe('WorkspaceRecord', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const record = (timeZone: string) => ({
    workspaceId: 'ws_1',
    organizationId: 'org_1',
    name: 'W',
    settings: { locale: 'en-US', timeZone, defaultPublishingTime: '09:00', description: '' },
    createdAt: '2026-01-01T00:00:00.000Z',
  });

  it('reads stored settings without asking ICU again: they were checked when written', () => {
    const formatSpy = vi.spyOn(Intl, 'DateTimeFormat');
    const zones = vi.spyOn(Intl, 'supportedValuesOf');

    expect(v.parse(WorkspaceRecord, record('US/Pacific')).settings.timeZone).toBe('US/Pacific');

    expect(formatSpy).not.toHaveBeenCalled();
    expect(zones).not.toHaveBeenCalled();
    // What a write goes through still asks.
    expect(v.is(WorkspaceSettings, record('US/Pacific').settings)).toBe(true);
    expect(formatSpy).toHaveBeenCalled();
  });

  it('still refuses a stored item of the wrong shape', () => {
    expect(v.is(WorkspaceRecord, { ...record('UTC'), settings: { locale: 'en-US', timeZone: 3, defaultPublishingTime: '09:00', description: '' } })).toBe(
      false,
    );
    expect(v.is(WorkspaceRecord, { ...record('UTC'), settings: undefined })).toBe(false);
  });
});
