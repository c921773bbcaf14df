/**
 * The API's messages about fields the form has no input for (`workspace_id`, `type`…): `Field`
 * shows only its own, and `FormError` only the summary, so these would otherwise be lost.
 */
export function OtherErrors({ error, shown }: { error: unknown; shown: string[] }) {
  if (!error || typeof error !== 'object' || !('details' in error) || !Array.isArray(error.details)) return null;
  const details = error.details as { path: string; message: string }[];
  const rest = details.filter((detail) => !shown.some((field) => detail.path === field || detail.path.startsWith(`${field}.`)));
  if (rest.length === 0) return null;
  return (
    <ul className="form-error access-details">
      {rest.map((detail) => (
        <li key={`${detail.path}:${detail.message}`}>
          {detail.path ? `${detail.path}: ` : ''}
          {detail.message}
        </li>
      ))}
    </ul>
  );
}
