/** Tool results longer than this are cut before they go to the model. */
const MAX_RESULT_CHARS = 100_000;

/**
 * A tool's result as text for the model: its text parts (other parts named by their type), else its
 * structured content as JSON, cut at `MAX_RESULT_CHARS`.
 */
export function resultText(result: Record<string, unknown>): string {
  const content: { type?: string; text?: unknown }[] = Array.isArray(result.content) ? result.content : [];
  const parts = content.map((part) =>
    part.type === 'text' && typeof part.text === 'string' ? part.text : `[${part.type ?? 'unknown'} content]`,
  );
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join('\n');
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}\n[result cut at ${MAX_RESULT_CHARS} characters]` : text;
}
