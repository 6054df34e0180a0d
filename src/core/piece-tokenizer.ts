/**
 * @module SentencePiece unigram tokenizer, as Universal Sentence Encoder lite's own (@energetic-ai/embeddings)
 * segments a text: NFKC, spaces as U+2581, the segmentation with the highest sum of piece scores (Viterbi over code
 * points, summed in the same order so that float rounding ties the same way). Pure TypeScript, no TensorFlow.
 */

/** The piece the tokenizer puts before every word (SentencePiece's U+2581). */
const SPACE = '\u2581';
/** The vocabulary's first rows are control symbols (unknown, <s>, </s>, three extras): never matched in text. */
export const RESERVED_PIECES = 6;

/** A word: U+2581 and what follows it up to the next. */
const WORDS = /\u2581[^\u2581]*/g;
/** Words whose segmentation is kept (a site's vocabulary fits; cleared when full). */
const WORDS_KEPT = 200_000;
/** Two segmentations' sums nearer than this may round either way: such a word is segmented anew each time. */
const NEAR_TIE = 1e-6;

/** A trie node: the next code points, and the piece ending here (-1: none). */
type TrieNode = { next: Map<number, TrieNode>; id: number };

/** SentencePiece's unigram segmentation exactly as the model's own tokenizer does it (@energetic-ai/embeddings). */
export class PieceTokenizer {
  private readonly root: TrieNode = { next: new Map(), id: -1 };
  private readonly pieces: readonly string[];
  private readonly scores: ArrayLike<number>;
  private readonly words = new Map<string, number[]>();

  constructor(pieces: readonly string[], scores: ArrayLike<number>) {
    this.pieces = pieces;
    this.scores = scores;
    for (let id = RESERVED_PIECES; id < pieces.length; id++) {
      let node = this.root;
      for (const ch of pieces[id]!) {
        const c = ch.codePointAt(0)!;
        let child = node.next.get(c);
        if (!child) node.next.set(c, (child = { next: new Map(), id: -1 }));
        node = child;
      }
      node.id = id;
    }
  }

  /** The piece ids of a text. */
  encode(text: string): number[] {
    const normal = text.normalize('NFKC');
    if (!normal) return [];
    const out: number[] = [];
    // Only a piece's first character is ever U+2581, so each word (U+2581 up to the next) is segmented on its own,
    // from the score the text reached before it: the same sums, in the same order, as over the whole text.
    let reached = 0;
    for (const word of (SPACE + normal.replaceAll(' ', SPACE)).match(WORDS)!) {
      let path = this.words.get(word);
      if (path) for (const id of path) reached = (id ? this.scores[id]! : 0) + reached;
      else {
        const r = this.segment(word, reached);
        path = r.path;
        reached = r.reached;
        // Kept only when no two segmentations came near a tie (then the sum before it cannot change its pieces).
        if (r.clear) {
          if (this.words.size >= WORDS_KEPT) this.words.clear();
          this.words.set(word, path);
        }
      }
      for (const id of path) if (!(id === 0 && out.at(-1) === 0)) out.push(id);
    }
    return out;
  }

  /** The best segmentation of one word (Viterbi from the score `from`), its sum, and whether it had no near tie. */
  private segment(word: string, from: number): { path: number[]; reached: number; clear: boolean } {
    const symbols = Array.from(word, (c) => c.codePointAt(0)!);
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const last = new Int32Array(n + 1);
    best[0] = from;
    let clear = true;
    // Each end's candidates are tried in ascending start order, as the model's tokenizer tries them; 0 is "not
    // reached yet" (every score is negative but the unknown piece's), as it reads it too.
    const relax = (end: number, id: number, score: number) => {
      if (best[end] !== 0 && Math.abs(score - best[end]!) < NEAR_TIE) clear = false;
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score;
        last[end] = id;
      }
    };
    for (let start = 0; start < n; start++) {
      if (start && best[start] === 0) clear = false;
      let node = this.root.next.get(symbols[start]!);
      let found = false;
      for (let end = start + 1; node; end++) {
        if (node.id >= 0) {
          relax(end, node.id, this.scores[node.id]! + best[start]!);
          found = true;
        }
        node = end < n ? node.next.get(symbols[end]!) : undefined;
      }
      if (!found) relax(start + 1, 0, best[start]!);
    }
    const path: number[] = [];
    // A piece's length in code units is its length in code points: no piece of the vocabulary is outside the BMP.
    for (let at = n; at > 0; at -= this.pieces[last[at]!]!.length) path.push(last[at]!);
    return { path: path.reverse(), reached: best[n]!, clear };
  }
}
