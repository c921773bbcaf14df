import { gunzipSync, gzipSync } from 'node:zlib';
import MiniSearch, { type AsPlainObject, type SearchResult } from 'minisearch';
import { searchTermOf, searchWordsOf } from '../../platform/search-terms.js';
import { FEEDBACK_MIN_PASSAGES, FEEDBACK_WEIGHT, feedbackTerms, termsOfText } from './feedback.js';
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

  /** The passages whose words best match `query`, best first. */
  query(query: string, limit: number): RankedPassage[] {
    const words = [...new Set(searchWordsOf(query))].slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return [];
    const first = this.search.search(words.join(' '), { boost: BOOST, combineWith: 'OR' });
    return this.withFeedback(words, first, limit).map((found) => ({
      document_id: String(found.document_id),
      title: String(found.title),
      section: String(found.section),
      text: String(found.text),
      score: Math.round(found.score * 1000) / 1000,
      position: Number(String(found.id).slice(String(found.id).lastIndexOf('#') + 1)),
    }));
  }

  /**
   * The best `limit` passages of the question, widened by the words its first passages share
   * (feedback.ts) when the index is large enough for them to mean something. Only the added words
   * are searched again (they are rare, so that search is small), and their scores are added to the
   * first search's: the question's own words are not scored twice.
   */
  private withFeedback(words: string[], first: SearchResult[], limit: number): SearchResult[] {
    if (this.passages < FEEDBACK_MIN_PASSAGES || first.length === 0) return first.slice(0, limit);
    const questionTerms = new Set(words.map(searchTermOf).filter((term): term is string => term !== null));
    const statistics = { passages: this.passages, passagesWith: (term: string) => this.passagesWith(term) };
    const added = feedbackTerms(first, questionTerms, statistics);
    if (added.length === 0) return first.slice(0, limit);
    const weight = Object.fromEntries(Object.entries(BOOST).map(([field, boost]) => [field, boost * FEEDBACK_WEIGHT]));
    // The added terms are stems already: searched as they are.
    const second = this.search.search(added.join(' '), { boost: weight, combineWith: 'OR', processTerm: (term: string) => term });
    return withAddedScores(first, second, limit);
  }
}

/**
 * MiniSearch scores a passage by the sum of its terms' BM25 scores times how many of the query's
 * terms it matched (`search`); as one search of both queries would, a passage found by both has
 * its sums added and its matched terms counted together.
 */
function combined(first: SearchResult | undefined, second: SearchResult): number {
  const matched = (found: SearchResult) => Math.max(1, found.queryTerms.length);
  const firstSum = first ? first.score / matched(first) : 0;
  const firstMatched = first ? matched(first) : 0;
  return (firstSum + second.score / matched(second)) * (firstMatched + matched(second));
}

/**
 * The best `limit` of `first` (sorted, best first) once each passage found by `second` has its
 * score raised (`combined`): those are sorted again (few); the others keep their order.
 */
function withAddedScores(first: SearchResult[], second: SearchResult[], limit: number): SearchResult[] {
  const raisedIds = new Set(second.map((found) => found.id));
  // One pass over the first search's passages (possibly most of the index), keeping only those raised.
  const firstById = new Map<unknown, SearchResult>();
  for (const found of first) if (raisedIds.has(found.id)) firstById.set(found.id, found);
  const raised = second
    .map((found) => ({ ...(firstById.get(found.id) ?? found), score: combined(firstById.get(found.id), found) }))
    .sort((a, b) => b.score - a.score);
  // Both are best first: the best `limit` of the two, merged; the first's raised ones are skipped.
  const best: SearchResult[] = [];
  let [r, k] = [0, 0];
  while (best.length < limit) {
    while (k < first.length && raisedIds.has(first[k]?.id)) k += 1;
    const [nextRaised, nextKept] = [raised[r], first[k]];
    if (!nextRaised && !nextKept) break;
    if (nextRaised && (!nextKept || nextRaised.score >= nextKept.score)) {
      best.push(nextRaised);
      r += 1;
    } else if (nextKept) {
      best.push(nextKept);
      k += 1;
    }
  }
  return best;
}
