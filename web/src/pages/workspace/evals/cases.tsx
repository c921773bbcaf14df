import { Empty } from '../../../ui/states';
import { type EvalCase, expectationsInWords } from './shared';

/** One case as read: its question, earlier messages when it has some, and its expectations in words. */
function CaseItem({ item }: { item: EvalCase }) {
  const expectations = expectationsInWords(item.expect);
  return (
    <li className="eval-case">
      <p className="eval-case-head">
        <code>{item.id}</code>
        {item.history?.length ? <span className="hint"> · asked after {item.history.length} earlier messages</span> : null}
      </p>
      <p className="bubble user eval-question">{item.question}</p>
      {expectations.length ? (
        <ul className="eval-expectations" aria-label={`What the answer to ${item.id} must do`}>
          {expectations.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        <p className="hint">No expectations: it passes unless the query ends in an error.</p>
      )}
    </li>
  );
}

/** The cases of an evaluation, read only. */
export function CaseList({ cases }: { cases: EvalCase[] }) {
  if (cases.length === 0) return <Empty>No cases.</Empty>;
  return (
    <ol className="eval-cases">
      {cases.map((item) => (
        <CaseItem key={item.id} item={item} />
      ))}
    </ol>
  );
}
