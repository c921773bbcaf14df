/** A list of numbers with their names: the console's `stats` grid. */
export function Stats({ items, label }: { items: [name: string, value: string][]; label?: string }) {
  return (
    <dl className="stats" aria-label={label}>
      {items.map(([name, value]) => (
        <div className="stat" key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
