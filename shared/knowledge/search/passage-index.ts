import { gunzipSync, gzipSync } from 'node:zlib';
import MiniSearch, { type AsPlainObject, type SearchResult } from 'minisearch';
import { searchTermOf, searchWordsOf } from '../../platform/search-terms.js';
import { FEEDBACK_WEIGHT, termsOfText } from './feedback.js';
import { queryShards } from './shard-query.js';
import { PassageVectors, type StoredVectors } from './passage-vectors.js';

/*
 * A workspace's passage index: MiniSearch (BM25+) over each passage's document title, heading path
 * and text (contextual retrieval: a passage is found by the words of its document and its section,
 * not its own text alone), every word reduced to its Porter stem as the tool search does
 * (platform/search-terms.ts), and the question widened by the words of the passages it finds first
 * (search/feedback.ts). Built at ingestion and stored as one blob per version
 * (search/index-store.ts); a search loads it once per process and version.
 */

/** A passage as stored with its document (`passages.json.gz`) and kept by the index. */
export interface StoredPassage {
  document_id: string;
  /** Its document's title. */
  title: string;
  /** Its heading path (`Setup › Accounts`), '' when none. */
  section: string;
  text: string;
  /** Its place in its document, from 0. */
  position: number;
  page?: number;
}

/** A passage found, best first. */
export interface FoundPassage {
  document_id: string;
  title: string;
  section: string;
  text: string;
  score: number;
}

/** A passage found, with its place in its document (what the fusion with the vectors joins on). */
export interface RankedPassage extends FoundPassage {
  position: number;
}

/** A document's vectors as ingestion gives them: of `space`, kept in the index, or null when the vector store keeps them. */
export interface DocumentVectors {
  space: string;
  vectors: Float32Array[] | null;
}

interface IndexedPassage extends StoredPassage {
  id: string;
}

/** A word of the title or the section counts more than one of the text (measured: `npm run bench -- knowledge`). */
const BOOST = { title: 1.5, section: 1.5, text: 1 };

/** The words feedback adds count `FEEDBACK_WEIGHT` of a question's (feedback.ts). */
const FEEDBACK_BOOST = Object.fromEntries(Object.entries(BOOST).map(([field, boost]) => [field, boost * FEEDBACK_WEIGHT]));

const OPTIONS = {
  fields: ['title', 'section', 'text'],
  storeFields: ['document_id', 'title', 'section', 'text'],
  tokenize: searchWordsOf,
  processTerm: searchTermOf,
};

/** What a stored index's blob holds: the documents it has (id → passages) and MiniSearch's own JSON. */
interface StoredIndex {
  version: 1;
  documents: Record<string, number>;
  index: AsPlainObject;
  /** The passages' vectors, when an embedding provider gave them (passage-vectors.ts). */
  vectors?: StoredVectors;
}

const passageId = (documentId: string, position: number) => `${documentId}#${position}`;

/**
 * How many passages' texts hold each term, from MiniSearch's stored form (`index`: each term's
 * passages per field), as `add` and `remove` keep it.
 */
function termFrequencies(stored: AsPlainObject): Map<string, number> {
  const frequencies = new Map<string, number>();
  const textField = String(stored.fieldIds.text);
  for (const [term, fields] of stored.index) {
    const passages = fields[textField];
    if (passages) frequencies.set(term, Object.keys(passages).length);
  }
  return frequencies;
}

export class PassageIndex {
  private constructor(
    private readonly search: MiniSearch<IndexedPassage>,
    /** The documents indexed, with how many passages each. */
    private readonly documents: Map<string, number>,
    /** How many passages hold each term (feedback.ts). */
    private readonly frequencies: Map<string, number>,
    /** The passages' vectors, or which documents the vector store has vectors of. */
    readonly vectors: PassageVectors,
  ) {}

  static empty(): PassageIndex {
    return new PassageIndex(new MiniSearch<IndexedPassage>(OPTIONS), new Map(), new Map(), PassageVectors.empty());
  }

  /** An index as `toBytes` stored it. */
  static fromBytes(bytes: Uint8Array): PassageIndex {
    const stored = JSON.parse(gunzipSync(bytes).toString('utf8')) as StoredIndex;
    const search = MiniSearch.loadJS<IndexedPassage>(stored.index, OPTIONS);
    const documents = new Map(Object.entries(stored.documents));
    return new PassageIndex(search, documents, termFrequencies(stored.index), PassageVectors.fromStored(stored.vectors));
  }

  toBytes(): Uint8Array {
    const vectors = this.vectors.toStored();
    const stored: StoredIndex = {
      version: 1,
      documents: Object.fromEntries(this.documents),
      index: this.search.toJSON(),
      ...(vectors ? { vectors } : {}),
    };
    return gzipSync(JSON.stringify(stored));
  }

  /** How many passages it holds. */
  get passages(): number {
    return this.search.documentCount;
  }

  get documentCount(): number {
    return this.documents.size;
  }

  has(documentId: string): boolean {
    return this.documents.has(documentId);
  }

  /** Adds a document's passages (replacing what it had), and its vectors when it was embedded. */
  add(documentId: string, passages: readonly StoredPassage[], embedded?: DocumentVectors): void {
    this.remove(documentId);
    this.search.addAll(passages.map((passage) => ({ ...passage, document_id: documentId, id: passageId(documentId, passage.position) })));
    for (const passage of passages) this.countTerms(passage.text, 1);
    this.documents.set(documentId, passages.length);
    if (embedded) this.vectors.set(embedded.space, documentId, embedded.vectors);
  }

  /** How many passages the document has here (0 when none). */
  passagesOf(documentId: string): number {
    return this.documents.get(documentId) ?? 0;
  }

  /** A passage by its document and place, as a search finds it; undefined when the index has no such passage. */
  passage(documentId: string, position: number): RankedPassage | undefined {
    const stored = this.search.getStoredFields(passageId(documentId, position));
    if (!stored) return undefined;
    return {
      document_id: documentId,
      title: String(stored.title),
      section: String(stored.section),
      text: String(stored.text),
      score: 0,
      position,
    };
  }

  /** How many passages' texts hold `term` (a stem). */
  passagesWith(term: string): number {
    return this.frequencies.get(term) ?? 0;
  }

  private countTerms(text: string, by: 1 | -1): void {
    for (const term of termsOfText(text)) {
      const holding = (this.frequencies.get(term) ?? 0) + by;
      if (holding > 0) this.frequencies.set(term, holding);
      else this.frequencies.delete(term);
    }
  }

  /** Takes a document's passages out; nothing when it has none here. */
  remove(documentId: string): void {
    const count = this.documents.get(documentId);
    if (count === undefined) return;
    for (let position = 0; position < count; position += 1) {
      const id = passageId(documentId, position);
      const stored = this.search.getStoredFields(id);
      if (!stored) continue;
      this.countTerms(String(stored.text), -1);
      // Removed with its fields (stored), so its postings go at once, from the stored form too
      // (`discard` would leave them until a vacuum).
      this.search.remove({ ...stored, id } as unknown as IndexedPassage);
    }
    this.documents.delete(documentId);
    this.vectors.remove(documentId);
  }

  /** The passages whose words best match `query`, best first (an index of one shard: shard-query.ts). */
  query(query: string, limit: number): RankedPassage[] {
    return queryShards([this], query, limit);
  }

  /** Every passage holding any of `words` (a question's), scored, best first. */
  searchWords(words: readonly string[]): SearchResult[] {
    return this.search.search(words.join(' '), { boost: BOOST, combineWith: 'OR' });
  }

  /** Every passage holding any of `terms` (stems the feedback added), scored at `FEEDBACK_WEIGHT`, best first. */
  searchAdded(terms: readonly string[]): SearchResult[] {
    // The added terms are stems already: searched as they are.
    return this.search.search(terms.join(' '), { boost: FEEDBACK_BOOST, combineWith: 'OR', processTerm: (term: string) => term });
  }

  /** The documents it holds. */
  documentIds(): string[] {
    return [...this.documents.keys()];
  }

  /** A document's passages and vectors as `add` took them (what a split moves to another shard). */
  exported(documentId: string): { passages: StoredPassage[]; vectors: DocumentVectors | undefined } {
    const passages: StoredPassage[] = [];
    for (let position = 0; position < this.passagesOf(documentId); position += 1) {
      const found = this.passage(documentId, position);
      if (found) passages.push({ document_id: documentId, title: found.title, section: found.section, text: found.text, position });
    }
    return { passages, vectors: this.vectors.of(documentId) };
  }
}
