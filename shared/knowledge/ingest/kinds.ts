import { startsAsZip, zipEntriesOf } from './zip-directory.js';

/*
 * What kind of document an upload is. The bytes decide first: a PDF or a ZIP says so in its first
 * bytes whatever it is called. Then the declared content type, then the file name's extension. A
 * ZIP that is not a DOCX, and any other binary, is refused (undefined): the reader never guesses a
 * kind for bytes it cannot read as that kind.
 */

/** The kinds of document the knowledge reader reads. */
export type DocumentKind = 'markdown' | 'text' | 'html' | 'pdf' | 'docx';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const BY_CONTENT_TYPE: Readonly<Record<string, DocumentKind>> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'text/html': 'html',
  'application/pdf': 'pdf',
  [DOCX_TYPE]: 'docx',
};

const BY_EXTENSION: Readonly<Record<string, DocumentKind>> = {
  md: 'markdown',
  markdown: 'markdown',
  txt: 'text',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
  docx: 'docx',
};

/** How a PDF starts (ISO 32000: the header `%PDF-1.n`). */
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d];

/** Whether the bytes start as a PDF does. */
export function startsAsPdf(bytes: Uint8Array): boolean {
  return PDF_MAGIC.every((byte, index) => bytes[index] === byte);
}

/** The kind a content type names (its parameters, such as `; charset=utf-8`, aside). */
function kindOfType(contentType: string | undefined): DocumentKind | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? BY_CONTENT_TYPE[type] : undefined;
}

/** The kind a file name's extension names. */
function kindOfName(filename: string | undefined): DocumentKind | undefined {
  const extension = filename?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  return extension ? BY_EXTENSION[extension] : undefined;
}

/** How much of the start is looked at to tell text from binary. */
const SNIFF_BYTES = 8_192;

/**
 * Whether the bytes read as text: no NUL byte and hardly any other control character in their
 * first 8 KB (random binary has a NUL in 8 KB all but surely; text, in any ASCII-based encoding, none).
 */
function looksLikeText(bytes: Uint8Array): boolean {
  const start = bytes.subarray(0, SNIFF_BYTES);
  let controls = 0;
  for (const byte of start) {
    if (byte === 0) return false;
    // Tab, line feed, form feed, carriage return and escape are text; other C0 controls are not.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) controls++;
  }
  return controls * 100 <= start.length;
}

/**
 * The kind of an uploaded document, or undefined when it is refused: by magic bytes first (`%PDF-`
 * is a PDF; a ZIP is a DOCX when its name or type says so or it holds `word/document.xml`, else
 * refused), then by content type, then by extension. A text kind is given only to bytes that read
 * as text, and a declared PDF or DOCX without its magic bytes is refused.
 */
export function kindOf(bytes: Uint8Array, filename?: string, contentType?: string): DocumentKind | undefined {
  const declared = kindOfType(contentType) ?? kindOfName(filename);
  if (startsAsPdf(bytes)) return 'pdf';
  if (startsAsZip(bytes)) {
    const saysDocx = kindOfType(contentType) === 'docx' || kindOfName(filename) === 'docx';
    return saysDocx || zipEntriesOf(bytes)?.some((entry) => entry.name === 'word/document.xml') ? 'docx' : undefined;
  }
  if (declared === undefined || declared === 'pdf' || declared === 'docx') return undefined;
  return looksLikeText(bytes) ? declared : undefined;
}
