export interface QualitySignals {
  /** Characters of main-content text (whitespace collapsed). */
  text_length: number;
  /** Visible text characters of the whole page per character of markup. */
  text_to_markup_ratio: number;
  /** Share of main-content words that sit inside links. */
  link_density: number;
  /** Almost no text, but a script-driven mount point or scripts: an app shell waiting for JavaScript. */
  empty_shell: boolean;
  /** Nothing but scripts: no visible text at all. */
  script_only: boolean;
  main_content_found: boolean;
}

export interface ContentQuality {
  score: number;
  confidence: 'low' | 'medium' | 'high';
  low_quality: boolean;
  signals: QualitySignals;
}

/** Pages scoring below this are worth a browser render (see the engines' waterfall). */
export const QUALITY_THRESHOLD = 0.4;

export interface QualityInput {
  signals: QualitySignals;
  /** A <noscript> or visible notice asking the reader to enable JavaScript. */
  javascriptNotice: boolean;
}

// Text length dominates: it is what a reader came for. Length is judged on a log scale between a sentence
// (80 chars, worth nothing) and a short article (2,500 chars, full marks).
const MIN_CHARS = 80;
const FULL_CHARS = 2500;

export function assessQuality({ signals, javascriptNotice }: QualityInput): ContentQuality {
  const length = clamp(Math.log(Math.max(1, signals.text_length) / MIN_CHARS) / Math.log(FULL_CHARS / MIN_CHARS));
  const markup = clamp(signals.text_to_markup_ratio / 0.05);
  const links = 1 - clamp((signals.link_density - 0.3) / 0.5);
  let score = 0.55 * length + 0.15 * markup + 0.15 * links + (signals.main_content_found ? 0.15 : 0);
  // Hard signals cap the score whatever the rest says.
  if (signals.script_only) score = Math.min(score, 0.1);
  else if (signals.empty_shell) score = Math.min(score, 0.15);
  else if (javascriptNotice && signals.text_length < 500) score = Math.min(score, 0.3);
  score = Math.round(clamp(score) * 1000) / 1000;
  const hard = signals.script_only || signals.empty_shell || signals.text_length === 0;
  const distance = Math.abs(score - QUALITY_THRESHOLD);
  const confidence = hard || distance >= 0.3 ? 'high' : distance >= 0.12 ? 'medium' : 'low';
  return { score, confidence, low_quality: score < QUALITY_THRESHOLD, signals };
}

/** Quality of a text or JSON body: only its length speaks. */
export function plainQuality(textLength: number): ContentQuality {
  return assessQuality({
    signals: {
      text_length: textLength,
      text_to_markup_ratio: textLength > 0 ? 1 : 0,
      link_density: 0,
      empty_shell: false,
      script_only: false,
      main_content_found: textLength > 0,
    },
    javascriptNotice: false,
  });
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
