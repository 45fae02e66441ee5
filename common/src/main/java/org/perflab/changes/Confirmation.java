package org.perflab.changes;

/**
 * What made a run that its judged metric left within noise a change: another measurement of the same run ({@link
 * Corroboration}) or a change of its set-up that its log shows ({@link SetUpChanged}).
 */
public sealed interface Confirmation permits Corroboration, SetUpChanged {
  /** The kind of change it makes. */
  ChangeKind kind();
}
