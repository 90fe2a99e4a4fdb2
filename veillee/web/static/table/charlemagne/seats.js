// The four seats around the table, placed as seen from this seat (you at the bottom, your
// partner across, East on your left and West on your right when you sit North): each with its
// name, card backs and count, who deals, the bid it made, whether it bids, sits out, or is to
// act; a Gros Mulot bidder's spread hand face up.
import { cardBack, cardImage } from "../cards.js";
import { place } from "./words.js";

function chip(text, kind) {
  const span = document.createElement("span");
  span.className = `chip chip-${kind}`;
  span.dataset.chip = kind;
  span.textContent = text;
  return span;
}

/** Fill the seat box of ``seat`` (``node``) from the deal view; ``presence``: who is here
 * (the page's, ../presence.js), beside each other person's name at a shared table. */
export function renderSeat(node, seat, state, words, presence) {
  const seats = state.seats;
  const deal = state.view.deal;
  const me = state.seat;
  const t = words.t;
  const where = place(seat, me);
  node.dataset.seat = deal.seat_names[seat];
  node.dataset.active = String(deal.to_act === seat);
  // Sitting out once its cards are gone (a Charlemagne partner first passes its card blind).
  node.dataset.sittingOut = String(deal.sitting_out === seat && deal.hand_counts[seat] === 0);

  const name = document.createElement("span");
  name.className = "seat-name";
  const head = document.createElement("div");
  head.className = "seat-head";
  head.append(name);
  if (where === "you" || where === "partner") {
    // "You · North", "Partner · South": the compass part may be left out on a narrow screen.
    name.textContent = words.t(`charlemagne.label.${where}`);
    const compass = document.createElement("span");
    compass.className = "seat-compass";
    compass.textContent = words.t("charlemagne.label.compass", { seat: words.compass(deal, seat) });
    name.append(compass);
  } else {
    name.textContent = words.compass(deal, seat);
  }
  if (where !== "you" && seats[seat] === "computer") {
    const who = document.createElement("span");
    who.className = "seat-computer";
    who.textContent = t("charlemagne.seat.computer");
    head.append(who);
  }
  const badge = presence.badge(seat, state);
  if (badge) {
    badge.dataset.testid = "presence";
    head.append(badge);
  }

  const chips = document.createElement("div");
  chips.className = "chips";
  if (deal.dealer === seat) chips.append(chip(t("charlemagne.chip.dealer"), "dealer"));
  if (deal.sitting_out === seat) chips.append(chip(t("charlemagne.chip.sitting_out"), "out"));
  if (deal.contract !== null && deal.bidder === seat) {
    chips.append(chip(t("charlemagne.chip.bidder", { bid: words.contract(deal.contract) }), "bidder"));
  } else if (deal.contract === null) {
    const made = deal.bids.find((b) => b.seat === seat);
    if (made) chips.append(chip(words.bid(made.bid), made.bid === "pass" ? "pass" : "bid"));
  }
  if (deal.to_act === seat && where !== "you") chips.append(chip(t("charlemagne.chip.to_act"), "to-act"));

  const line = document.createElement("div");
  line.className = "seat-line";
  const spread = deal.spread && deal.bidder === seat ? deal.spread : null;
  if (where !== "you" && spread === null) {
    const count = deal.hand_counts[seat];
    const backs = document.createElement("div");
    backs.className = "backs";
    backs.setAttribute("role", "img");
    backs.setAttribute("aria-label", words.plural("charlemagne.seat.cards", count));
    backs.dataset.count = String(count);
    for (let i = 0; i < count; i += 1) backs.append(cardBack());
    const number = document.createElement("span");
    number.className = "back-count";
    number.setAttribute("aria-hidden", "true");
    number.textContent = String(count);
    backs.append(number);
    line.append(backs);
  } else if (where !== "you") {
    // Gros Mulot after trick 1: the bidder's cards lie face up for everybody (rules §8).
    const shown = document.createElement("div");
    shown.className = "spread";
    shown.dataset.testid = "spread";
    shown.setAttribute("role", "group");
    shown.setAttribute("aria-label", t("charlemagne.seat.spread"));
    for (const card of spread) shown.append(cardImage(card, t));
    line.append(shown);
  }
  line.append(chips);
  node.replaceChildren(head, line);
}
