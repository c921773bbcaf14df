import { lazy, Suspense } from 'react';

/*
 * Model and tool text is Markdown (lists, tables, code, links). The renderer (react-markdown and
 * remark-gfm) is a chunk of its own, loaded the first time an answer is shown, so it does not grow
 * the first load; until it arrives the text shows as it is, plain.
 */
const MarkdownView = lazy(() => import('./markdown-view'));

/** Untrusted Markdown rendered safely: no raw HTML, only http(s) and mailto links, opened in a new tab. */
export function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="markdown-plain">{text}</div>}>
      <MarkdownView text={text} />
    </Suspense>
  );
}
