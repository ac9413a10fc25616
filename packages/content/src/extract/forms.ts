import { isElement, type DomElement } from '../dom.ts';

// Controls a reader types into. A form with two or more of them (a contact, sign-up, lead or comment form) is
// something to fill in, not something to read: its labels and help texts are never the page's content.
const ENTRY_INPUT_TYPES = new Set(['', 'text', 'email', 'tel', 'url', 'number', 'password', 'date', 'datetime-local']);
const ENTRY_FORM_CONTROLS = 2;

/** Forms found to be data-entry forms by prepare-page.ts (kept in the tree: furniture.ts judges them by size). */
const entryForms = new WeakSet<DomElement>();

export function isEntryForm(el: DomElement): boolean {
  return el.name === 'form' && entryForms.has(el);
}

// A form whose one field takes an email address is a newsletter or sign-up box ("Get the Morning Brief"), however
// it is named: furniture.ts drops the small block around it with it.
const EMAIL_NAME = /e-?mail/i;
const signUpForms = new WeakSet<DomElement>();

export function isSignUpForm(el: DomElement): boolean {
  return el.name === 'form' && signUpForms.has(el);
}

/** The controls of one page's forms, charged to their forms as prepare-page.ts meets them, then judged. */
export class FormControls {
  private readonly counts = new Map<DomElement, number>();
  private readonly email = new Set<DomElement>();

  /** Charges an entry control to its form; false for any other element. */
  note(el: DomElement): boolean {
    if (!isEntryControl(el)) return false;
    countEntryControl(el, this.counts, this.email);
    return true;
  }

  /** Marks the page's entry forms and sign-up forms. */
  judge(): void {
    for (const [form, count] of this.counts) {
      if (count >= ENTRY_FORM_CONTROLS) entryForms.add(form);
      else if (this.email.has(form)) signUpForms.add(form);
    }
  }
}

function isEntryControl(el: DomElement): boolean {
  if (el.name === 'textarea') return true;
  return el.name === 'input' && ENTRY_INPUT_TYPES.has((el.attribs.type ?? '').trim().toLowerCase());
}

/**
 * Charges a control to its nearest enclosing <form> (none: a control outside any form counts for nothing), and
 * notes the forms holding one that takes an email address.
 */
function countEntryControl(el: DomElement, counts: Map<DomElement, number>, email: Set<DomElement>): void {
  for (let up = el.parent; up !== null && up.type !== 'root'; up = up.parent) {
    if (isElement(up) && up.name === 'form') {
      counts.set(up, (counts.get(up) ?? 0) + 1);
      if (isEmailControl(el)) email.add(up);
      return;
    }
  }
}

function isEmailControl(el: DomElement): boolean {
  const { type, name, id, placeholder } = el.attribs;
  return type?.trim().toLowerCase() === 'email' || [name, id, placeholder].some((value) => value !== undefined && EMAIL_NAME.test(value));
}


const WRAPPING_LABEL_LEVELS = 4;

/**
 * The labels of fields the content tree drops: "Size" over a card's removed size picker, "Search" beside a removed
 * search box. A label naming one (`for` its id) or holding one is a field's name without its field. Labels of
 * checkboxes and radio buttons name the choice itself, and stay.
 */
export class FieldLabels {
  private readonly ids = new Set<string>();
  private readonly byFor: DomElement[] = [];
  private readonly holding = new Set<DomElement>();

  /** A field the content tree drops. */
  field(el: DomElement): void {
    if (!isNamedField(el)) return;
    const id = el.attribs.id?.trim();
    if (id) this.ids.add(id);
    let up = el.parent;
    for (let k = 0; k < WRAPPING_LABEL_LEVELS && up !== null && isElement(up); k++, up = up.parent) {
      if (up.name === 'label') {
        this.holding.add(up);
        return;
      }
    }
  }

  /** A label the content tree keeps, so far. */
  label(el: DomElement): void {
    if (el.name === 'label' && el.attribs.for) this.byFor.push(el);
  }

  /** The labels left without their field. */
  orphans(): DomElement[] {
    const named = this.byFor.filter((l) => this.ids.has(l.attribs.for!.trim()));
    return [...new Set([...named, ...this.holding])];
  }
}

/** Fields whose <label> is only their name: what a reader picks or types there is gone with the field. */
function isNamedField(el: DomElement): boolean {
  return el.name === 'select' || isEntryControl(el) || (el.name === 'input' && el.attribs.type?.trim().toLowerCase() === 'search');
}
