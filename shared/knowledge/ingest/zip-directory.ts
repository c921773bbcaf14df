/*
 * The central directory of a ZIP (a DOCX is one): each entry's name and its declared sizes, read
 * without inflating anything. It tells a DOCX from another ZIP and finds a zip bomb that declares
 * its size. Declared sizes can lie: the reader's worker inflates within a bound before the DOCX
 * library reads the file (parse-worker.mjs), and the worker's memory limit holds beyond that.
 */

/** An entry as the central directory declares it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where its local header starts. */
  localHeaderOffset: number;
}

const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
/** The end record is 22 bytes and may be followed by a comment of at most 65 535. */
const END_RECORD_SIZE = 22;
const MAX_COMMENT = 0xffff;

/** Whether the bytes start as a ZIP does (a local file header). */
export function startsAsZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === LOCAL_HEADER;
}

/** Where the end of central directory record starts, searched backwards over the longest comment. */
function endRecordOf(view: DataView): number | undefined {
  const last = view.byteLength - END_RECORD_SIZE;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  return undefined;
}

/**
 * The entries of a ZIP's central directory; undefined when there is none to read (not a ZIP, cut
 * short, or ZIP64: a DOCX never needs 4 GB or 65 535 parts, so one that says so is refused).
 */
export function zipEntriesOf(bytes: Uint8Array): ZipEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = endRecordOf(view);
  if (end === undefined) return undefined;
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff || offset + size > end) return undefined;
  const names = new TextDecoder();
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || view.getUint32(at, true) !== DIRECTORY_ENTRY) return undefined;
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > end) return undefined;
    entries.push({
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
