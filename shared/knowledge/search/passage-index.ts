import { gunzipSync, gzipSync } from 'node:zlib';
import MiniSearch, { type AsPlainObject, type Query, type SearchResult } from 'minisearch';
import { searchTermOf, searchWordsOf } from '../../platform/search-terms.js';
import { FEEDBACK_PASSAGES_RANGE, FEEDBACK_WEIGHT, feedbackTerms } from './feedback.js';

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

interface IndexedPassage extends StoredPassage {
  id: string;
}

/** The words of a question searched: each once, at most this many (a question says what it wants in fewer). */
const MAX_QUERY_WORDS = 32;

/** A word of the title or the section counts more than one of the text (measured: `npm run bench -- knowledge`). */
const BOOST = { title: 1.5, section: 1.5, text: 1 };

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
}

const passageId = (documentId: string, position: number) => `${documentId}#${position}`;

export class PassageIndex {
  private constructor(
    private readonly search: MiniSearch<IndexedPassage>,
    /** The documents indexed, with how many passages each. */
    private readonly documents: Map<string, number>,
  ) {}

  static empty(): PassageIndex {
    return new PassageIndex(new MiniSearch<IndexedPassage>(OPTIONS), new Map());
  }

  /** An index as `toBytes` stored it. */
  static fromBytes(bytes: Uint8Array): PassageIndex {
    const stored = JSON.parse(gunzipSync(bytes).toString('utf8')) as StoredIndex;
    const search = MiniSearch.loadJS<IndexedPassage>(stored.index, OPTIONS);
    return new PassageIndex(search, new Map(Object.entries(stored.documents)));
  }

  toBytes(): Uint8Array {
    const stored: StoredIndex = { version: 1, documents: Object.fromEntries(this.documents), index: this.search.toJSON() };
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

  /** Adds a document's passages (replacing what it had). */
  add(documentId: string, passages: readonly StoredPassage[]): void {
    this.remove(documentId);
    this.search.addAll(passages.map((passage) => ({ ...passage, document_id: documentId, id: passageId(documentId, passage.position) })));
    this.documents.set(documentId, passages.length);
  }

  /** Takes a document's passages out; nothing when it has none here. */
  remove(documentId: string): void {
    const count = this.documents.get(documentId);
    if (count === undefined) return;
    for (let position = 0; position < count; position += 1) {
      const id = passageId(documentId, position);
      if (this.search.has(id)) this.search.discard(id);
    }
    this.documents.delete(documentId);
  }

  /** The passages that best match `query`, best first. */
  query(query: string, limit: number): FoundPassage[] {
    const words = [...new Set(searchWordsOf(query))].slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return [];
    const first = this.search.search(words.join(' '), { boost: BOOST, combineWith: 'OR' });
    return this.withFeedback(words, first)
      .slice(0, limit)
      .map((found) => ({
        document_id: String(found.document_id),
        title: String(found.title),
        section: String(found.section),
        text: String(found.text),
        score: Math.round(found.score * 1000) / 1000,
      }));
  }

  /**
   * The question searched again with the words its first passages share (feedback.ts), when the
   * index is large enough for them to mean something and small enough for the second search to be
   * cheap; else the first search.
   */
  private withFeedback(words: string[], first: SearchResult[]): SearchResult[] {
    const { min, max } = FEEDBACK_PASSAGES_RANGE;
    if (this.passages < min || this.passages > max || first.length === 0) return first;
    const questionTerms = new Set(words.map(searchTermOf).filter((term): term is string => term !== null));
    const added = feedbackTerms(first, questionTerms);
    if (added.length === 0) return first;
    const weight = Object.fromEntries(Object.entries(BOOST).map(([field, boost]) => [field, boost * FEEDBACK_WEIGHT]));
    const widened: Query = {
      combineWith: 'OR',
      queries: [
        { queries: words, combineWith: 'OR' },
        // The added terms are stems already: searched as they are.
        { queries: added, combineWith: 'OR', boost: weight, processTerm: (term: string) => term },
      ],
    };
    return this.search.search(widened, { boost: BOOST });
  }
}
