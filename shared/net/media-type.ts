/** The essence of a Content-Type value ("image/png; charset=x" → "image/png"), lower-cased; '' when absent. */
export function mediaTypeOf(header: string | undefined | null): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}
