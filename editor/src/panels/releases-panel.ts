/**
 * The Releases tab of the Source panel: the active organization's releases, newest first a page
 * at a time, and the chosen one's shots, read again while any is queued or running. A done shot
 * opens as the source, fetched through its signed download URL; its diff opens in a dialog.
 */
import './releases-panel.css';
import { byId, clearProblem, isBusy, setBusy, showProblem } from '../dom.ts';
import { ApiError } from '../io/api.ts';
import type { Editor } from '../editor.ts';
import type { Account } from '../io/account.ts';
import { ReleaseReader } from '../io/releases.ts';
import { appendReleases, changeText, countsText, framingText, pollDelay, progressKey, releasesAccess, shotSource, unsettled } from '../model/releases.ts';
import type { ReleaseItem, ReleaseShots, ShotItem } from '../model/releases.ts';
import { bitmapSource } from '../render/sources.ts';
import { DiffDialog } from './diff-dialog.ts';
import { ShotList } from './shot-list.ts';
import type { ShotAction } from './shot-list.ts';
import type { SignInDialog } from './sign-in-dialog.ts';

const dated = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });

export function setupReleasesPanel(editor: Editor, account: Account, signIn: SignInDialog): void {
  new ReleasesPanel(editor, account, signIn);
}

class ReleasesPanel {
  private readonly tab = byId('panel-releases', HTMLDivElement);
  private readonly access = byId('releases-access', HTMLParagraphElement);
  private readonly signInButton = byId('releases-sign-in', HTMLButtonElement);
  private readonly body = byId('releases-body', HTMLDivElement);
  private readonly select = byId('release-select', HTMLSelectElement);
  private readonly more = byId('releases-more', HTMLButtonElement);
  private readonly status = byId('release-status', HTMLParagraphElement);
  private readonly problem = byId('releases-error', HTMLDivElement);
  private readonly shotList: ShotList;
  private readonly diff = new DiffDialog();
  private readonly reader: ReleaseReader;
  private releases: ReleaseItem[] = [];
  private nextCursor: string | undefined;
  private shots: ReleaseShots | undefined;
  /** Reads in a row that saw no shot move: the wait before the next grows with them. */
  private quietReads = 0;
  private lastProgress = '';
  /** The counts last said: a read that changes nothing leaves the line (and a message of Open) as it is. */
  private countsShown = '';
  private timer = 0;
  /** Bumped whenever what is shown stops being current (another release, organization or tab): answers of an older one are dropped. */
  private generation = 0;
  private opening = 0;
  private readonly editor: Editor;
  private readonly account: Account;

  constructor(editor: Editor, account: Account, signIn: SignInDialog) {
    this.editor = editor;
    this.account = account;
    this.reader = new ReleaseReader(editor.api);
    this.shotList = new ShotList(byId('shot-list', HTMLUListElement), (action, name) => this.act(action, name));
    this.signInButton.addEventListener('click', () => signIn.open('Sign in to see your organization’s releases and open their shots.'));
    this.select.addEventListener('change', () => void this.choose());
    this.more.addEventListener('click', () => {
      if (!isBusy(this.more)) void this.loadReleases(this.nextCursor);
    });
    // The tab's panel is shown and hidden by the Source panel's tabs; reading runs only while it shows.
    new MutationObserver(() => this.visibility()).observe(this.tab, { attributes: true, attributeFilter: ['hidden'] });
    document.addEventListener('visibilitychange', () => this.visibility());
    account.onChange(() => this.reset());
    this.reset();
  }

  private shown(): boolean {
    return !this.tab.hidden && document.visibilityState === 'visible' && !this.body.hidden;
  }

  /** The session changed: another organization's releases, or none. */
  private reset(): void {
    this.stop();
    this.releases = [];
    this.nextCursor = undefined;
    this.shots = undefined;
    this.select.replaceChildren();
    this.shotList.clear();
    this.status.textContent = '';
    clearProblem(this.problem);
    const access = releasesAccess({
      state: this.account.state,
      organization: this.account.bootstrap?.organization.name,
      permissions: this.account.bootstrap?.membership.permissions,
    });
    this.access.textContent = access.text;
    this.signInButton.hidden = !access.offerSignIn;
    this.body.hidden = !access.open;
    if (this.shown()) void this.loadReleases();
  }

  /** Opening the tab (or coming back to the page) reads the releases afresh; hiding either stops reading. */
  private visibility(): void {
    if (this.shown()) void this.loadReleases();
    else this.stop();
  }

  private stop(): void {
    this.generation += 1;
    clearTimeout(this.timer);
    this.timer = 0;
    this.body.dataset.polling = 'false';
  }

  private chosen(): ReleaseItem | undefined {
    return this.releases.find((release) => release.id === this.select.value);
  }

  private titleOf = (releaseId: string) => this.releases.find((release) => release.id === releaseId)?.title;

  /** The first page (and the newest release chosen), or the page after `cursor`. */
  private async loadReleases(cursor?: string): Promise<void> {
    const generation = cursor ? this.generation : this.restart();
    setBusy(this.more, true);
    clearProblem(this.problem);
    try {
      const page = await this.reader.page(cursor);
      if (generation !== this.generation) return;
      const keep = this.select.value;
      this.releases = cursor ? appendReleases(this.releases, page.releases) : page.releases;
      this.nextCursor = page.nextCursor;
      this.select.replaceChildren(...this.releases.map((release) => new Option(`${release.title} · ${dated(release.createdAt)}`, release.id)));
      // Hiding the focused button would drop the keyboard focus to the page.
      if (this.nextCursor === undefined && document.activeElement === this.more) this.select.focus();
      this.more.hidden = this.nextCursor === undefined;
      if (cursor) {
        this.select.value = keep;
        this.status.textContent = `${this.releases.length} releases listed.`;
        return;
      }
      if (this.releases.length === 0) {
        this.status.textContent = 'No releases yet: CI creates them (POST /api/v1/releases, docs/shots.md).';
        this.shotList.clear();
        return;
      }
      if (this.releases.some((release) => release.id === keep)) this.select.value = keep;
      await this.readShots();
    } catch (error) {
      if (generation !== this.generation) return;
      this.status.textContent = 'The releases could not be read.';
      showProblem(this.problem, error);
    } finally {
      setBusy(this.more, false);
    }
  }

  /** Stops what was being read and returns the new generation. */
  private restart(): number {
    this.stop();
    this.quietReads = 0;
    this.lastProgress = '';
    this.countsShown = '';
    return this.generation;
  }

  private async choose(): Promise<void> {
    this.restart();
    this.shots = undefined;
    this.shotList.clear();
    clearProblem(this.problem);
    await this.readShots();
  }

  /** Reads the chosen release's shots, and reads again later while any may still change. */
  private async readShots(): Promise<void> {
    const release = this.chosen();
    if (!release) return;
    const generation = this.generation;
    clearTimeout(this.timer);
    this.body.dataset.polling = 'true';
    try {
      const shots = await this.reader.shots(release.id);
      if (generation !== this.generation) return;
      const progress = progressKey(shots.shots);
      this.quietReads = progress === this.lastProgress ? this.quietReads + 1 : 0;
      this.lastProgress = progress;
      this.shots = shots;
      this.shotList.show(shots.shots, this.titleOf);
      const counts = countsText(shots.counts);
      if (counts !== this.countsShown) this.status.textContent = counts;
      this.countsShown = counts;
      this.next(unsettled(shots.counts));
    } catch (error) {
      if (generation !== this.generation) return;
      this.status.textContent = `The shots of ${release.title} could not be read.`;
      this.countsShown = '';
      showProblem(this.problem, error);
      // No answer, or a dependency down: tried again later while shots were running; a refusal is final.
      const passing = !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
      this.quietReads += 1;
      this.next(passing && this.shots !== undefined && unsettled(this.shots.counts));
    }
  }

  private next(again: boolean): void {
    this.body.dataset.polling = String(again && this.shown());
    if (!again || !this.shown()) return;
    const generation = this.generation;
    this.timer = window.setTimeout(() => {
      if (generation === this.generation) void this.readShots();
    }, pollDelay(this.quietReads));
  }

  private act(action: ShotAction, name: string): void {
    const shot = this.shots?.shots.find((candidate) => candidate.name === name);
    const release = this.chosen();
    if (!shot || !release) return;
    if (action === 'open') void this.open(shot, release);
    else if (shot.changes) {
      const { diffAssetId, width, height } = shot.changes;
      void this.diff.show(`${shot.name} (${framingText(shot)})`, changeText(shot, this.titleOf), { width, height }, () => this.reader.picture(diffAssetId));
    }
  }

  /** The shot's picture becomes the source, kept in the Recent list like a capture. */
  private async open(shot: ShotItem, release: ReleaseItem): Promise<void> {
    if (!shot.assetId) return;
    const turn = ++this.opening;
    clearProblem(this.problem);
    this.status.textContent = `Opening ${shot.name}…`;
    this.editor.busy(`Opening the shot ${shot.name}…`);
    try {
      const blob = await this.reader.picture(shot.assetId);
      const source = await bitmapSource(blob, shotSource(shot, release, dated(shot.finishedAt ?? shot.queuedAt)));
      if (turn !== this.opening) return source.bitmap?.close();
      this.editor.setSource(source);
      this.status.textContent = `Opened ${shot.name} (${framingText(shot)}) of ${release.title}.`;
    } catch (error) {
      if (turn !== this.opening) return;
      this.status.textContent = `Could not open ${shot.name}.`;
      showProblem(this.problem, error);
    } finally {
      if (turn === this.opening) this.editor.busy(undefined);
    }
  }
}
