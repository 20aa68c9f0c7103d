/* contract.h - is a JSON tree a summary this build can read?  The keys and
 * types of spec/summary-json.md that diff, trend and the renderers rely
 * on, checked once when a saved summary is read, so that every later
 * reader may trust the shape (a string where a number belongs, or a run
 * without steps, is refused up front with the path of the value instead of
 * surfacing as a "–" or a wrong comparison).  Values that cannot be known
 * may be null, as the spec allows; keys may not be missing. */
#ifndef PROFREPORT_CONTRACT_H
#define PROFREPORT_CONTRACT_H

#include <cjson/cJSON.h>

#include "profreport/error.h"

/* The schema_version this build reads. */
#define PR_CONTRACT_SCHEMA 1

/* The version of the figures' definitions (tool.definitions): bumped only
 * when a figure's definition changes, so that diff can tell a changed
 * definition from a rebuild (review 19 #2, #7); an older summary without
 * it is version 1.  src/diff/compat.c lists what changed at each; a
 * saved summary of a lower version is an older profreport's (its note,
 * pr_contract_check_saved). */
#define PR_DEFINITIONS 2

/* Check `sum`.  Errors: PR_E_FORMAT with the path of the first offending
 * value and what was wrong ("runs[0].steps[3].duration_us: expected a
 * number or null, got a string"; "runs[0]: missing key \"steps\"");
 * callers prefix the file name. */
PR_NODISCARD enum pr_status pr_contract_check(const cJSON *sum,
                                              struct pr_error *err);

/* The version of the figures' definitions sum's writer had
 * (tool.definitions); without the key, by its step basis, which every
 * run's step_summary has recorded since version 2's whole-capture window
 * came (7bd138b5, 28 November): no basis on any run is version 1 (every
 * summary 08619121 saved of the 38 samples); a basis is version 2 for a
 * summary without an Ascend run, and 0 (cannot be told) with one: the
 * Cube share and device names changed hours after the basis came
 * (4a6ecc7f).  A summary without runs: 0.  The one reader of it (the
 * older-summary note, the diff's definitions check). */
int pr_contract_definitions(const cJSON *sum);

/* pr_contract_check for a summary read from a file, which an older
 * profreport may have written: one that lacks a key this build reads, or
 * records a lower PR_DEFINITIONS (none: version 1, or 2 with a step
 * basis), even though it lacks no key.  A key it did not write reads as
 * null where its row allows null; a part of a run that lacks one that
 * cannot be (one whose key the contract does not ask of every run: its
 * temporal_breakdown) is left out of `sum`; and a data-quality note on
 * the run (diagnostics kind "older_summary") names the views it does not
 * have (schema.def's EVERY parts it lacks), the parts left out, the keys
 * read as unknown and the definitions' version, and says to run
 * profreport on the traces again; a damaged value, or a missing key that
 * every run must have, is refused as pr_contract_check refuses it.  A
 * summary this build would write is left as it is. */
PR_NODISCARD enum pr_status pr_contract_check_saved(cJSON *sum,
                                                    struct pr_error *err);

#endif
