// What the Chouine table says, in the page's language: the other seat (the computer, or at a
// shared table the friend), declarations, whose turn it is. Every number comes from the view
// (docs/chouine-views.md); the page computes no rule.

/** Whether the other seat of `state` is a person (a shared table) rather than the computer. */
export function friendly(state) {
  return state.seats[1 - state.seat] !== "computer";
}

/** A declaration as the view gives it ({kind, suit or null, points}) in words. */
export function declarationLabel(decl, t) {
  const suit = decl.suit ? t(`card.suit.${decl.suit}`) : "";
  return t(`chouine.decl.${decl.kind}`, { suit, points: decl.points });
}

/** Whose turn it is and what to do; always says something. */
export function turnLine(state, t) {
  const { match, deal } = state.view;
  if (match.over) return t("chouine.turn.match_over");
  if (deal.to_act === null) return t("chouine.turn.partie_over");
  if (deal.to_act !== state.seat) return friendly(state) ? t("friend.turn.friend") : t("chouine.turn.computer");
  if (deal.prompt === "seven") return t("chouine.turn.prompt");
  return deal.trick.length === 0 ? t("chouine.turn.lead") : t("chouine.turn.follow");
}

/** The match score in the top bar: "You 1 – 0 Computer" (or Friend). */
export function score(state, t) {
  const { wins } = state.view.match;
  const key = friendly(state) ? "friend.match.score" : "chouine.match.score";
  return t(key, { you: wins[state.seat], them: wins[1 - state.seat] });
}

/** Something of the match would be lost by a restart: a partie won, or a card played or
 * declared. */
export function inProgress(state) {
  if (!state) return false;
  const { match, deal } = state.view;
  if (match.over) return false;
  return match.wins.some((w) => w > 0) || deal.trick_number > 1 || deal.trick.length > 0
    || deal.piles.some((p) => p > 0);
}
