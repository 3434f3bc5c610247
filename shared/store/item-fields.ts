/** An item as a caller sees it: the fields its schema declares, never the keys or the store's own attributes. */
export function schemaFields<T>(schema: { entries: Record<string, unknown> }): (item: Record<string, unknown>) => T {
  const fields = Object.keys(schema.entries);
  return (item) => {
    const seen: Record<string, unknown> = {};
    for (const field of fields) if (item[field] !== undefined) seen[field] = item[field];
    return seen as T;
  };
}
