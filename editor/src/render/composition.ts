/** What a picture is made of, and where each part goes: shared by drawing, the preview and the export size. */
import { contentSize } from '../model/edits.ts';
import type { Edits } from '../model/edits.ts';
import { layout } from '../model/layout.ts';
import type { Layout } from '../model/layout.ts';
import type { Settings } from '../model/settings.ts';
import type { Source } from './sources.ts';

/** Everything an export is made from. */
export interface Composition {
  source: Source;
  settings: Settings;
  edits: Edits;
  /** The user's image, for an image background; too big for the settings, so kept beside them. */
  backgroundImage?: ImageBitmap;
}

/** Where everything goes, in layout pixels. */
export function planOf(composition: Composition): Layout {
  return layout(contentSize(composition.source, composition.edits), composition.settings);
}
