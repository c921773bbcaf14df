/*
 * What budgets read of routines, through a port the wiring fills (shared/wiring/deps.ts) with the
 * routines' own lookup. Budgets cannot import routines: a routine's run asks through the query use
 * case (routines → agent), which holds the budgets (agent → budgets). A run needs no lookup to be
 * admitted: its owner (`routine:<id>`) names the routine (agent/query/budget.ts); only a new
 * budget's `scope_id` is looked up here.
 */

/** The routines of an organisation, as budgets see them. */
export interface RoutineDirectory {
  /** The routine's name when `routineId` is a routine of `orgId`; undefined for a missing one or another organisation's. */
  routineName(orgId: string, routineId: string): Promise<string | undefined>;
}
