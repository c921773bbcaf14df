import { DomainError } from '../../platform/errors.js';

/**
 * Why a document was refused, for code to tell cases apart (the message is for people):
 * `unreadable` (not the kind it claims, or broken), `too_large` (bytes, or a DOCX's expansion),
 * `too_many_pages`, `too_much_text`, `too_slow` (the timeout), `crashed` (the reader ran out of
 * memory or died).
 */
type RejectionReason = 'unreadable' | 'too_large' | 'too_many_pages' | 'too_much_text' | 'too_slow' | 'crashed';

/**
 * A document the reader refuses, with a short reason a person can read ("the PDF has 3 000 000
 * pages; at most 2 000 are read"). A client's document caused it, so it is a 400 like any invalid
 * input; `reason` says which case.
 */
export class DocumentRejectedError extends DomainError {
  override name = 'DocumentRejectedError';
  constructor(
    readonly reason: RejectionReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(400, 'invalid', message, {}, options);
  }
}

/** A count as people write it, thousands apart with a space: 3 000 000. */
function countText(count: number): string {
  return Math.round(count)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** The rejection of a document with more text than is read. */
export function tooMuchText(maxCharacters: number): DocumentRejectedError {
  const limit = countText(maxCharacters);
  return new DocumentRejectedError('too_much_text', `the document has more than ${limit} characters of text; at most ${limit} are read`);
}

/** The rejection of a document that took longer than the timeout to read ("30 s", "1.5 s", "200 ms"). */
export function tooSlow(timeoutMs: number): DocumentRejectedError {
  const time = timeoutMs < 1_000 ? `${Math.round(timeoutMs)} ms` : `${Math.round(timeoutMs / 100) / 10} s`;
  return new DocumentRejectedError('too_slow', `the document took longer than ${time} to read`);
}

/** The rejection of a PDF with more pages than are read. */
export function tooManyPages(pages: number, maxPages: number): DocumentRejectedError {
  return new DocumentRejectedError('too_many_pages', `the PDF has ${countText(pages)} pages; at most ${countText(maxPages)} are read`);
}
