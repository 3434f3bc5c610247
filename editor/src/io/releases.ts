/** The active organization's releases, their shots and the shots' pictures, read as the signed-in user. */
import { ApiError } from './api.ts';
import type { Api } from './api.ts';
import type { ReleasePage, ReleaseShots } from '../model/releases.ts';

/** Releases a page: a select's worth; older ones come a page at a time. */
export const RELEASES_PAGE = 20;

export class ReleaseReader {
  private readonly api: Api;

  constructor(api: Api) {
    this.api = api;
  }

  /** Newest first; `cursor` is the page before's `nextCursor`. */
  page(cursor?: string): Promise<ReleasePage> {
    const query = new URLSearchParams({ limit: String(RELEASES_PAGE), ...(cursor ? { cursor } : {}) });
    return this.api.json<ReleasePage>(`/api/v1/releases?${query}`, { credentials: 'session' });
  }

  shots(releaseId: string, signal?: AbortSignal): Promise<ReleaseShots> {
    return this.api.json<ReleaseShots>(`/api/v1/releases/${encodeURIComponent(releaseId)}/shots`, { credentials: 'session', signal });
  }

  /**
   * An asset's bytes through its signed download URL: straight from the assets bucket, which the
   * page's CSP (connect-src) and the bucket's CORS allow.
   * @throws ApiError when the URL is refused; Error when the asset is gone or the bucket does not hand it over
   */
  async picture(assetId: string, signal?: AbortSignal): Promise<Blob> {
    const { downloadUrl } = await this.api
      .json<{ downloadUrl: string }>(`/api/v1/assets/${encodeURIComponent(assetId)}/download-url`, { credentials: 'session', signal })
      .catch((error: unknown) => {
        // Said as a shot's, not as a saved export's (problem-text.ts reads the route as saving).
        if (error instanceof ApiError && error.status === 404)
          throw new Error('This picture is no longer in the workspace (it was deleted): run the shot again.');
        throw error;
      });
    const response = await fetch(downloadUrl, { signal }).catch((error: unknown) => {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      return undefined;
    });
    if (!response?.ok) throw new Error(`The storage service did not hand over the picture${response ? ` (HTTP ${response.status})` : ''}; try again.`);
    return response.blob();
  }
}
