import type { DomDocument, DomElement } from '@trawl/content';
import type { CompiledExtraction } from '../compile.ts';
import type { PageFeatures } from '../fingerprint.ts';
import type { SelectorMemory } from '../memory.ts';
import { FieldOracle } from './field-oracle.ts';
import { FieldSearch } from './field-search.ts';
import { dropConstantValues, dropNeighbourValues, dropOffPlace } from './post-filters.ts';
import { relocateRecords } from './record-groups.ts';
import type { FieldPlan, RecordMatch, Relocation } from './record-match.ts';

type Matched = readonly { el: DomElement; match: RecordMatch }[];

/**
 * Relocation on one page, by phase: the fields of one record (field-search.ts), the records of a page whose base
 * selector matched nothing (record-groups.ts), and the checks across records (post-filters.ts), all asking one
 * memoized oracle (field-oracle.ts), which this is too (fillFromUsualPlaces in usual-place.ts asks it).
 */
export class Relocator extends FieldOracle {
  private readonly search: FieldSearch;

  constructor(compiled: CompiledExtraction, memory: SelectorMemory, features: PageFeatures) {
    super(compiled, memory, features);
    this.search = new FieldSearch(this);
  }

  /** See FieldSearch.matchRecord. */
  matchRecord(record: DomElement, plans: readonly FieldPlan[]): RecordMatch {
    return this.search.matchRecord(record, plans);
  }

  /** See relocateRecords in record-groups.ts. */
  relocateRecords(root: DomDocument, plans: readonly FieldPlan[]): Relocation | null {
    return relocateRecords(this, this.search, root, plans);
  }

  dropConstantValues(records: Matched): void {
    dropConstantValues(this, records);
  }

  dropOffPlace(records: Matched, only?: readonly number[]): void {
    dropOffPlace(this, records, only);
  }

  dropNeighbourValues(records: Matched, only?: readonly number[]): void {
    dropNeighbourValues(this, records, only);
  }
}
