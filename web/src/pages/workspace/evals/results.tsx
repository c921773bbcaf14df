import { useId } from 'react';
import { Badge } from '../../../ui/badge';
import { duration, money } from '../../../ui/format';
import { Empty } from '../../../ui/states';
import { type CaseResult, type EvalCase, type Run, tokensText } from './shared';

/** Regressions first (they passed in the run compared to), then the other failures, then what passed; each in case order. */
function ordered(run: Run): CaseResult[] {
  const regressions = new Set(run.regressions);
  const rank = (result: CaseResult) => (regressions.has(result.case_id) ? 0 : result.passed ? 2 : 1);
  return run.results
    .map((result, index) => ({ result, index }))
    .sort((a, b) => rank(a.result) - rank(b.result) || a.index - b.index)
    .map(({ result }) => result);
}

/** The tools an answer called, each once, with how many times when more than once. */
function ToolsCalled({ tools }: { tools: string[] }) {
  const times = new Map<string, number>();
  for (const tool of tools) times.set(tool, (times.get(tool) ?? 0) + 1);
  return (
    <p className="tool-line">
      Tools called:{' '}
      {times.size
        ? [...times].map(([tool, n], index) => (
            <span key={tool}>
              {index > 0 && ', '}
              <code>{tool}</code>
              {n > 1 && ` (${n} times)`}
            </span>
          ))
        : 'none'}
    </p>
  );
}

/** An answer and the tools it called. */
function AnswerOf({ result }: { result: CaseResult }) {
  return (
    <>
      <div className="bubble assistant">{result.answer || <span className="hint">(no text)</span>}</div>
      <ToolsCalled tools={result.tools_called} />
    </>
  );
}

/** A regression's answer now, beside the one that passed in the run compared to (while it loads, or if it cannot be read, the one now alone). */
function Answers({ result, passed }: { result: CaseResult; passed: CaseResult | undefined }) {
  if (!passed) {
    return (
      <>
        <h4>Answer</h4>
        <AnswerOf result={result} />
      </>
    );
  }
  return (
    <div className="eval-compare">
      <div>
        <h4>Answer now</h4>
        <AnswerOf result={result} />
      </div>
      <div>
        <h4>Answer that passed in the run compared to</h4>
        <AnswerOf result={passed} />
      </div>
    </div>
  );
}

interface ResultProps {
  result: CaseResult;
  /** The case as the evaluation has it now (a case removed since has none). */
  item: EvalCase | undefined;
  regression: boolean;
  /** For a regression, the case's result in the run compared to, which passed. */
  passed: CaseResult | undefined;
}

/** One case's result: passed or not (and a regression), why it failed in words, the answer and the tools it called. */
function ResultCard({ result, item, regression, passed }: ResultProps) {
  const headingId = useId();
  return (
    <article className={`card eval-result${regression ? ' eval-regression' : ''}`} aria-labelledby={headingId}>
      <div className="wc-card-head">
        <h3 id={headingId}>
          {regression && 'Regression: '}
          <code>{result.case_id}</code>
        </h3>
        <Badge status={result.passed ? 'passed' : 'failed'} />
        {regression && <Badge status="regression" />}
      </div>
      {regression && <p className="eval-regression-note">It passed in the run compared to, and fails now.</p>}
      <p className="bubble user eval-question">
        {item ? item.question : <span className="hint">(this case is no longer in the evaluation)</span>}
      </p>
      {result.failures.length > 0 ? (
        <>
          <h4>Why it failed</h4>
          <ul className="eval-failures">
            {result.failures.map((failure) => (
              <li key={failure}>{failure}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>Every expectation held.</p>
      )}
      <Answers result={result} passed={regression ? passed : undefined} />
      <p className="tool-line">
        Tokens {tokensText(result.tokens)} · Cost {money(result.cost_usd)} · Time {duration(result.duration_ms)}
      </p>
    </article>
  );
}

interface ResultsProps {
  run: Run;
  cases: EvalCase[];
  /** The results of the run compared to (undefined until read): a regression shows the answer that passed there. */
  before: CaseResult[] | undefined;
}

/** Each case's result of a run, regressions first, each beside the answer that passed before. */
export function Results({ run, cases, before }: ResultsProps) {
  if (run.results.length === 0) return <Empty>No case has finished yet.</Empty>;
  const regressions = new Set(run.regressions);
  const byId = new Map(cases.map((item) => [item.id, item]));
  // Matched by case id, as the API matched them to find the regressions.
  const passedBefore = new Map((before ?? []).filter((result) => result.passed).map((result) => [result.case_id, result]));
  return (
    <div className="wc-list">
      {ordered(run).map((result) => (
        <ResultCard
          key={result.case_id}
          result={result}
          item={byId.get(result.case_id)}
          regression={regressions.has(result.case_id)}
          passed={passedBefore.get(result.case_id)}
        />
      ))}
    </div>
  );
}
