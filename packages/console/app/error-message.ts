/**
 * Fills the `%name` placeholders of an error body's message from its `parameters`: an array of
 * objects (`[{ "fieldName": "sku", "fieldValue": "X-1" }]`), the first that has the name
 * giving its value, or one object of names; a name none has stays as it is.
 */
export function fillMessage(message: string, parameters: unknown): string {
  const sources: Record<string, unknown>[] = Array.isArray(parameters)
    ? parameters.filter((entry): entry is Record<string, unknown> => isObject(entry))
    : isObject(parameters)
      ? [parameters]
      : [];
  return message.replace(/%(\w+)/g, (whole, name: string) => {
    const found = sources.find((source) => Object.hasOwn(source, name));
    return found ? String(found[name]) : whole;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
