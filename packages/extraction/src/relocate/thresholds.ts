// Relocation: finding records and fields by similarity to what the memory remembers. A wrong value is worse than
// a null, so every step has a threshold, and a field also needs a margin over its runner-up. The thresholds more
// than one phase uses are here; each phase keeps its own beside it.

/** A field element must be at least this similar to the remembered one. */
export const FIELD_THRESHOLD = 0.62;
/** ...and this much more similar than the best other candidate giving a different value (else: ambiguous, null). */
export const FIELD_MARGIN = 0.06;
/** A relocated record must score at least this (0.3 × record similarity + 0.7 × its fields' similarity). */
export const RECORD_THRESHOLD = 0.6;
/** The mean score of the relocated records (or fields) must reach this, or nothing is extracted: low_confidence. */
export const CONFIDENCE_THRESHOLD = 0.65;
/** A relocated value repeated at one place of at least this many records can be page chrome (dropConstantValues). */
export const CONSTANT_MIN_RECORDS = 3;
