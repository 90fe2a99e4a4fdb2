// What the Charlemagne table says, in the page's language: seat names as seen from this seat,
// contracts, the turn line, the contract and trick lines, and why a hand ended. Every number
// comes from the view (docs/charlemagne-views.md); the page computes no rule.

/** Where ``seat`` sits as seen from ``me``: "you", "left", "partner" or "right". */
export function place(seat, me) {
  return ["you", "left", "partner", "right"][(seat - me + 4) % 4];
}

export class Words {
  constructor(t) {
    this.t = t;
  }

  /** ``key`` in the plural form for ``n`` (the translator picks it by Intl.PluralRules). */
  plural(key, n, values = {}) {
    return this.t(key, { n, ...values });
  }

  /** "North", "East"… (the deal view's seat names, in words). */
  compass(deal, seat) {
    return this.t(`charlemagne.seat.${deal.seat_names[seat]}`);
  }

  /** How a seat is called in a sentence: "you", "your partner", "East". */
  who(deal, seat, me) {
    const where = place(seat, me);
    if (where === "you") return this.t("charlemagne.who.you");
    if (where === "partner") return this.t("charlemagne.who.partner");
    return this.compass(deal, seat);
  }

  /** Seats in a sentence, as one list: "your partner", "East and your partner" (FR "Est et
   * votre partenaire"), in the page's language. */
  whoAll(deal, seats, me) {
    const list = new Intl.ListFormat(document.documentElement.lang || undefined, { type: "conjunction" });
    return list.format(seats.map((seat) => this.who(deal, seat, me)));
  }

  /** A seat as listed in the auction: "You", "Partner", "East". */
  seatLabel(deal, seat, me) {
    const where = place(seat, me);
    if (where === "you" || where === "partner") return this.t(`charlemagne.label.${where}`);
    return this.compass(deal, seat);
  }

  /** A seat in one word, for captions: "You", "South", "East". */
  seatShort(deal, seat, me) {
    return place(seat, me) === "you" ? this.t("charlemagne.table.you") : this.compass(deal, seat);
  }

  /** The two seats of a team, in words: "you and your partner", "East and West". */
  side(deal, team, me) {
    if (team === deal.teams[me]) return this.t("charlemagne.side.us");
    const [a, b] = deal.teams.flatMap((side, seat) => (side === team ? [seat] : []));
    return this.t("charlemagne.side.pair", { a: this.compass(deal, a), b: this.compass(deal, b) });
  }

  contract(contract) {
    return this.t(`charlemagne.bid.${contract}`);
  }

  /** A bid or pass as shown at a seat: "Pass", "6", "Mulot". */
  bid(bid) {
    return bid === "pass" ? this.t("charlemagne.bid.pass") : this.contract(bid);
  }

  /** Whose turn it is and what they are doing; always says something. */
  turnLine(state) {
    const { match, deal } = state.view;
    const me = state.seat;
    if (match.over) return this.t("charlemagne.turn.match_over");
    if (deal.to_act === null) return this.t("charlemagne.turn.hand_over");
    const step = deal.phase === "play" ? (deal.trick.length ? "follow" : "lead") : deal.phase;
    const where = place(deal.to_act, me);
    if (where === "you") {
      if (deal.phase === "auction" && !deal.legal.includes("pass")) return this.t("charlemagne.turn.you.stuck");
      if (deal.phase === "discard") return this.plural("charlemagne.turn.you.discard", discardCount(deal));
      return this.t(`charlemagne.turn.you.${step}`);
    }
    const verb = deal.phase === "play" ? "play" : deal.phase;
    if (where === "partner") return this.t(`charlemagne.turn.partner.${verb}`);
    return this.t(`charlemagne.turn.other.${verb}`, { name: this.compass(deal, deal.to_act) });
  }

  /** "Hand 3 · East deals · first to 32". */
  matchLine(state) {
    const { match, deal } = state.view;
    return this.t("charlemagne.match.line", {
      hand: match.hand,
      dealer: this.compass(deal, match.dealer),
      target: match.target,
    });
  }

  /** The contract and what it asks, or the auction so far. */
  contractLine(state) {
    const deal = state.view.deal;
    const me = state.seat;
    if (deal.contract === null) {
      const top = highestBid(deal);
      if (!top) return this.t("charlemagne.contract.auction_open");
      return this.t("charlemagne.contract.auction_high", {
        bid: this.contract(top.bid),
        name: this.who(deal, top.seat, me),
      });
    }
    const bidder = this.who(deal, deal.bidder, me);
    let goal;
    if (deal.contract_kind === "number") {
      const bidders = deal.teams[deal.bidder];
      const us = bidders === deal.teams[me] ? "us" : "them";
      goal = this.t(`charlemagne.goal.number.${us}`, { side: this.side(deal, bidders, me), n: deal.contract });
    } else if (deal.contract_kind === "mulot") {
      goal = this.t("charlemagne.goal.no_trick", { name: bidder });
    } else {
      goal = this.t("charlemagne.goal.every_trick", { name: bidder });
    }
    return this.t("charlemagne.contract.line", { contract: this.contract(deal.contract), name: bidder, goal });
  }

  /** A reason code (the engine's, or the server's) in words: the page's own sentence, said for
   * the step or the contract where that reads better ("bid or pass first"; a bid too low names
   * the highest so far; a card that does not follow names the suit led, and says which cards are
   * trumps where that is the point: trumps led, or a joker or a jack of the trump's colour
   * refused (``card``, a trump by the view's ``hand_suits`` but not of the trump suit by its
   * face) — and in a Mulot that a joker may not be played then), else ``fallback``. */
  reason(code, deal, fallback, card) {
    const t = this.t;
    const top = deal ? highestBid(deal) : null;
    let variant = null;
    let values = top ? { bid: this.contract(top.bid), name: this.who(deal, top.seat, deal.seat) } : {};
    if (code === "wrong_phase") variant = deal?.phase;
    else if (code === "bid_too_low" && top) variant = "high";
    else if (code === "must_follow_suit" && deal?.led_suit) {
      const suit = deal.hand_suits?.[card];
      if (!deal.trump) variant = suit === "JOKER" ? "jokers" : "suit";
      else if (deal.led_suit === deal.trump) variant = "trump";
      else variant = suit === deal.trump && card?.[1] !== deal.trump ? "named" : "suit";
      values = { suit: t(`card.suit.${deal.led_suit}`) };
    } else if (deal?.phase === "play" && !deal.trump) variant = "jokers";
    if (variant) {
      const key = `charlemagne.reason.${code}.${variant}`;
      if (t(key) !== key) return t(key, values);
    }
    const key = `charlemagne.reason.${code}`;
    const text = t(key, values);
    return text !== key ? text : fallback ?? t("reason.unknown");
  }

  /** "Trumps: hearts", "No trumps but the jokers", or "" before trumps are named. */
  trumpLine(deal) {
    if (deal.trump) return this.t("charlemagne.trump.named", { suit: this.t(`card.suit.${deal.trump}`) });
    if (deal.contract_kind === "mulot") return this.t("charlemagne.trump.jokers_only");
    return "";
  }

  /** Tricks won so far: per side, or the solo bidder against the others ("us 2, them 1",
   * "you 0, the others 1"): the same words on the board and at the hand's end. */
  tricksValue(state) {
    const deal = state.view.deal;
    const me = state.seat;
    if (deal.bidder_tricks !== null && deal.bidder_tricks !== undefined) {
      return this.t("charlemagne.tricks.solo_value", {
        name: this.who(deal, deal.bidder, me),
        bidder: deal.bidder_tricks,
        others: deal.opponent_tricks,
      });
    }
    const mine = deal.teams[me];
    return this.t("charlemagne.tricks.sides_value", { us: deal.tricks_won[mine], them: deal.tricks_won[1 - mine] });
  }

  /** The board's line of :meth:`tricksValue` ("Tricks: us 2, them 1"). */
  tricksLine(state) {
    return this.t("charlemagne.tricks.line", { tricks: this.tricksValue(state) });
  }

  /** Why the hand ended, with the view's numbers ("East and West took 3 tricks: …"). */
  whyItEnded(state) {
    const deal = state.view.deal;
    const outcome = deal.outcome;
    const me = state.seat;
    const team = deal.teams[outcome.bidder];
    const where = place(outcome.bidder, me);
    const person = where === "you" ? "you" : where === "partner" ? "partner" : "other";
    const name = this.compass(deal, outcome.bidder);
    if (deal.contract_kind === "number") {
      // The side whose tricks decided it: the bidders when made, the others when failed.
      const winners = outcome.made ? team : 1 - team;
      const us = winners === deal.teams[me] ? "us" : "them";
      return this.plural(`charlemagne.end.number_${outcome.made ? "made" : "failed"}.${us}`, outcome.tricks[winners], {
        side: this.side(deal, 1 - deal.teams[me], me),
        contract: outcome.contract,
      });
    }
    return this.t(`charlemagne.end.${deal.contract_kind}_${outcome.made ? "made" : "failed"}.${person}`, { name });
  }

  /** "The hand stopped after trick 5: the other cards are not played." or "". */
  stoppedEarly(deal) {
    if (!deal.stopped_early) return "";
    return this.t("charlemagne.end.stopped_early", { n: deal.trick_number });
  }

  /** "Contract made: +6 for you and your partner". */
  handHeadline(state) {
    const outcome = state.view.deal.outcome;
    return this.t(`charlemagne.end.headline.${outcome.made ? "made" : "failed"}`, {
      points: outcome.points,
      side: this.side(state.view.deal, outcome.scoring_team, state.seat),
    });
  }

  /** "You and your partner win the match 34–20." */
  matchResult(state) {
    const { match, deal } = state.view;
    const mine = deal.teams[state.seat];
    const winner = match.winner;
    const key = winner === mine ? "charlemagne.match.we_win" : "charlemagne.match.they_win";
    return this.t(key, {
      side: this.side(deal, winner, state.seat),
      winner: match.scores[winner],
      loser: match.scores[1 - winner],
    });
  }

  /** "Us 12 – 8 Them". */
  score(state) {
    const mine = state.view.deal.teams[state.seat];
    const scores = state.view.match.scores;
    return this.t("charlemagne.match.score", { us: scores[mine], them: scores[1 - mine] });
  }
}

/** The highest bid of the auction so far ({seat, bid}), or null before anyone bids. */
export function highestBid(deal) {
  const bids = deal.bids.filter((b) => b.bid !== "pass");
  return bids.length ? bids[bids.length - 1] : null;
}

/** How many cards the discard asks for: the number of cards in a legal discard. */
export function discardCount(deal) {
  const first = deal.legal.find((a) => a.startsWith("discard "));
  return first ? first.split(" ").length - 1 : 0;
}

