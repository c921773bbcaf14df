import { createHash } from 'node:crypto';
import { PassageIndex, type DocumentVectors, type RankedPassage, type StoredPassage } from './passage-index.js';
import type { NearPassage } from './passage-vectors.js';
import { queryShards } from './shard-query.js';

/*
 * A workspace's index as shards (docs/knowledge.md, "The index"): each document belongs to the shard
 * whose prefix begins the bits of its id's SHA-256, so which shard holds a document is known from the
 * manifest alone, and a change of one document loads, changes and writes that shard only: its cost
 * does not grow with the workspace. A shard past `KNOWLEDGE_SHARD_PASSAGES` (2 000) is split in two by the next bit
 * (extendible hashing), so shards stay between about half and all of it, and their documents are a
 * random draw of the workspace's (their term statistics alike, as a search engine's shards are).
 */

/** The bits a prefix may have: 2^24 shards is far past any workspace. */
const MAX_PREFIX_BITS = 24;

/** The first 32 bits of the SHA-256 of a document's id, as '0' and '1'. */
function bitsOf(documentId: string): string {
  return createHash('sha256').update(documentId).digest().readUInt32BE(0).toString(2).padStart(32, '0');
}

/** The shard of `prefixes` (a complete set: every document has exactly one) that holds `documentId`. */
export function shardPrefixOf(prefixes: readonly string[], documentId: string): string {
  const bits = bitsOf(documentId);
  const prefix = prefixes.find((candidate) => bits.startsWith(candidate));
  if (prefix === undefined) throw new Error(`no shard of the knowledge index holds ${documentId}`);
  return prefix;
}

/**
 * A workspace's index: the shards it has loaded, by prefix. A search loads them all; a change loads
 * the one of its document, and knows which it changed.
 */
export class WorkspaceIndex {
  private readonly changed = new Set<string>();

  constructor(
    /** The loaded shards, by prefix. */
    private readonly shards: Map<string, PassageIndex>,
    /** Every shard's prefix, loaded or not. */
    private readonly prefixes: readonly string[] = [...shards.keys()],
  ) {}

  /** An index of no document: one empty shard of prefix ''. */
  static empty(): WorkspaceIndex {
    return new WorkspaceIndex(new Map([['', PassageIndex.empty()]]));
  }

  private shardOf(documentId: string): PassageIndex {
    const prefix = shardPrefixOf(this.prefixes, documentId);
    const shard = this.shards.get(prefix);
    if (!shard) throw new Error(`the shard '${prefix}' of the knowledge index is not loaded`);
    return shard;
  }

  /** The loaded shards' passages. */
  get passages(): number {
    let sum = 0;
    for (const shard of this.shards.values()) sum += shard.passages;
    return sum;
  }

  has(documentId: string): boolean {
    return this.shardOf(documentId).has(documentId);
  }

  passagesOf(documentId: string): number {
    return this.shardOf(documentId).passagesOf(documentId);
  }

  passage(documentId: string, position: number): RankedPassage | undefined {
    return this.shardOf(documentId).passage(documentId, position);
  }

  query(query: string, limit: number): RankedPassage[] {
    return queryShards([...this.shards.values()], query, limit);
  }

  /** How many documents have vectors of `space` here. */
  documentsWithVectors(space: string): number {
    let sum = 0;
    for (const shard of this.shards.values()) sum += shard.vectors.documentsIn(space);
    return sum;
  }

  /** The `limit` passages whose vectors (kept here) are nearest `query`, nearest first. */
  nearest(space: string, query: Float32Array, limit: number): NearPassage[] {
    return [...this.shards.values()]
      .flatMap((shard) => shard.vectors.nearest(space, query, limit))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, limit);
  }

  /** Adds a document's passages (replacing what it had) to its shard. */
  add(documentId: string, passages: readonly StoredPassage[], embedded?: DocumentVectors): void {
    this.shardOf(documentId).add(documentId, passages, embedded);
    this.changed.add(shardPrefixOf(this.prefixes, documentId));
  }

  remove(documentId: string): void {
    if (!this.has(documentId)) return;
    this.shardOf(documentId).remove(documentId);
    this.changed.add(shardPrefixOf(this.prefixes, documentId));
  }

  /**
   * The shards changed, each as it is to be stored: split by the next bit of its documents' ids
   * until no part is past `maxPassages` (`replaces`: the prefix of the shard they take the place of).
   */
  changedShards(maxPassages: number): { replaces: string; shards: { prefix: string; index: PassageIndex }[] }[] {
    return [...this.changed].map((prefix) => ({
      replaces: prefix,
      shards: splitShard(prefix, this.shards.get(prefix) as PassageIndex, maxPassages),
    }));
  }
}

/** `index` (the shard of `prefix`) as shards of at most `maxPassages` passages each, or itself when it is within. */
function splitShard(prefix: string, index: PassageIndex, maxPassages: number): { prefix: string; index: PassageIndex }[] {
  if (index.passages <= maxPassages || prefix.length >= MAX_PREFIX_BITS) return [{ prefix, index }];
  const halves = { '0': PassageIndex.empty(), '1': PassageIndex.empty() };
  for (const documentId of index.documentIds()) {
    const { passages, vectors } = index.exported(documentId);
    halves[bitsOf(documentId)[prefix.length] as '0' | '1'].add(documentId, passages, vectors);
  }
  return [...splitShard(`${prefix}0`, halves['0'], maxPassages), ...splitShard(`${prefix}1`, halves['1'], maxPassages)];
}
