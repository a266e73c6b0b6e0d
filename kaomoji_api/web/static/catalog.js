// The pages: search as you type, category chips, random picks, copy on click, details, 12 languages.
// The server renders each page's faces; this script takes them over, then calls the public API on this origin,
// one request per pause in typing, and waits as long as a 429 says. The address follows what is shown
// (history.pushState), so back, reload and a shared link show the same thing.
"use strict";

(() => {
  const settings = JSON.parse(document.getElementById("settings").textContent);
  // What the server rendered: {kind: "browse", category, page, total_pages}, {kind: "search", query, page,
  // total_pages}, {kind: "kaomoji", id, text, name, category} or {kind: "message"} (a 404 or 400 page).
  const initial = JSON.parse(document.getElementById("view").textContent);
  // A kaomoji page or an error page: its article stays; asking for another list opens that list's page.
  const fixedPage = initial.kind === "kaomoji" || initial.kind === "message";
  const LOCALE_KEY = "kaomoji.locale";
  const DEBOUNCE_MS = 300;
  const PAGE_SIZE = 24;
  const RANDOM_COUNT = 10;  // the API's maximum per request
  const VISIBLE_CHIPS = 15;
  const WIDE = 9, VERY_WIDE = 16;  // display widths (columns) from which a face is set smaller

  const $ = (id) => document.getElementById(id);
  const ui = {
    form: $("search-form"), query: $("query"), language: $("language"), random: $("random"),
    chips: $("chips"), moreCategories: $("more-categories"),
    status: $("status"), toast: $("toast"), detailStatus: $("detail-status"), notice: $("notice"), heading: $("results-heading"), results: $("results"), more: $("more"),
    dialog: $("detail"), detailFace: $("detail-face"), detailName: $("detail-name"), detailCategory: $("detail-category"),
    detailCopy: $("detail-copy"), detailClose: $("detail-close"), detailNote: $("detail-note"),
    detailUsage: $("detail-usage"), detailKeywords: $("detail-keywords"), attribution: $("attribution"),
    pager: $("pager"), entryCopy: $("entry-copy"), entryStatus: $("entry-status"),
  };
  const supported = settings.locales.map((l) => l.code);

  let messages = {};
  let locale = settings.locale;
  // What the grid shows; on a kaomoji or error page, the faces the server put there ("fixed").
  let view = fixedPage ? { kind: "fixed", page: 1 } : { ...initial };
  let sentQuery = initial.kind === "search" ? initial.query : "";  // so an unchanged query sends nothing
  let debounceTimer = 0;
  let retryTimer = 0;
  let gridRequest = null;       // AbortController of the grid's request in flight
  let pausedUntil = 0;          // no API request before this time (ms), set from Retry-After
  let categories = [];
  let detailEntry = null;
  let toastTimer = 0;

  // Language ----------------------------------------------------------------

  // The same matching as the API's locales.resolve: case-insensitive, aliases, Chinese script or region.
  function resolveTag(tag) {
    const byLower = new Map(supported.map((code) => [code.toLowerCase(), code]));
    const known = (code) => (code && supported.includes(code) ? code : null);
    const lower = tag.trim().replace(/_/g, "-").toLowerCase();
    if (byLower.has(lower)) return byLower.get(lower);
    if (known(settings.aliases[lower])) return settings.aliases[lower];
    const parts = lower.split("-");
    if (parts[0] === "zh" && parts.length > 1) {
      for (const part of parts.slice(1)) {
        const found = byLower.get(`zh-${part}`) || known(settings.aliases[`zh-${part}`]);
        if (found) return found;
      }
      return null;
    }
    return byLower.get(parts[0]) || known(settings.aliases[parts[0]]);
  }

  function firstLocale() {
    let stored = null;
    try { stored = localStorage.getItem(LOCALE_KEY); } catch { /* storage may be disabled */ }
    if (stored && supported.includes(stored)) return stored;
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const found = tag && resolveTag(tag);
      if (found) return found;
    }
    return settings.default_locale;
  }

  function t(key, values = {}) {
    const text = (messages[locale] && messages[locale][key]) || (messages.en && messages.en[key]) || key;
    return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  }

  const number = (n) => new Intl.NumberFormat(locale).format(n);

  function applyLabels() {
    document.documentElement.lang = locale;
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
    for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    // The attribution keeps its link: the translated sentence is split around {link}.
    const link = ui.attribution.querySelector("a");
    const [before, after = ""] = t("attribution").split("{link}");
    ui.attribution.replaceChildren(before, link, after);
    ui.moreCategories.textContent = t(ui.moreCategories.getAttribute("aria-expanded") === "true" ? "fewer_categories" : "more_categories");
  }

  function fillLanguageMenu() {
    ui.language.replaceChildren(...settings.locales.map(({ code, name }) => {
      const option = new Option(name, code);
      option.lang = code;
      return option;
    }));
  }

  async function setLocale(code, remember) {
    if (remember) {
      try { localStorage.setItem(LOCALE_KEY, code); } catch { /* not remembered, still used */ }
    }
    if (fixedPage) {
      // The article is the server's: open the same page in the other language.
      location.assign(initial.kind === "kaomoji" ? kaomojiAddress(initial.id, code) : `${prefix(code)}/`);
      return;
    }
    locale = code;
    ui.language.value = code;
    applyLabels();
    const address = addressOf(view);
    if (address) history.replaceState({ view }, "", address);
    await Promise.all([loadCategories(), load(view, { record: false })]);
  }

  // Addresses -----------------------------------------------------------------

  // The same as the server's: the default locale's pages have no prefix.
  const prefix = (code) => (code === settings.default_locale ? "" : `/${code}`);

  function addressOf(of, code = locale) {
    if (of.kind === "search") return `${prefix(code)}/search?q=${encodeURIComponent(of.query)}`;
    if (of.kind === "browse") return of.category ? `${prefix(code)}/category/${encodeURIComponent(of.category)}` : `${prefix(code)}/`;
    return null;  // random picks have no page of their own
  }

  const kaomojiAddress = (id, code = locale) => `${prefix(code)}/kaomoji/${id}`;

  function record(state, address) {
    if (address && address !== location.pathname + location.search) history.pushState(state, "", address);
  }

  // The API -----------------------------------------------------------------

  class TooManyRequests extends Error {
    constructor(seconds) { super(`429, retry after ${seconds} s`); this.seconds = seconds; }
  }

  function retryAfterSeconds(header) {
    const seconds = Number(header);
    if (header && Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
    const date = Date.parse(header || "");
    return Number.isNaN(date) ? 60 : Math.max(1, Math.ceil((date - Date.now()) / 1000));
  }

  function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
    });
  }

  async function api(path, params = {}, signal = undefined) {
    // After a 429 nothing is sent before Retry-After has passed, whoever asks.
    while (Date.now() < pausedUntil) await sleep(pausedUntil - Date.now(), signal);
    const url = new URL(path, location.href);
    for (const [name, value] of Object.entries({ ...params, locale })) {
      if (value !== null && value !== undefined && value !== "") url.searchParams.set(name, value);
    }
    const response = await fetch(url, { signal, headers: { Accept: "application/json" } });
    if (response.status === 429) {
      const seconds = retryAfterSeconds(response.headers.get("Retry-After"));
      pausedUntil = Math.max(pausedUntil, Date.now() + seconds * 1000);
      throw new TooManyRequests(seconds);
    }
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.detail || body.title || `HTTP ${response.status}`);
    return body;
  }

  // Categories ----------------------------------------------------------------

  async function loadCategories() {
    try {
      categories = (await api(settings.api.categories)).data.sort((a, b) => b.count - a.count);
    } catch (error) {
      if (error instanceof TooManyRequests) setTimeout(loadCategories, error.seconds * 1000);
      return;
    }
    renderChips();
  }

  function chip(slug, name, count, index) {
    const item = document.createElement("li");
    if (index >= VISIBLE_CHIPS) {
      item.className = "extra";
      item.hidden = ui.moreCategories.getAttribute("aria-expanded") !== "true" && view.category !== slug;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.dataset.slug = slug || "";
    button.setAttribute("aria-pressed", "false");
    const label = document.createElement("span");
    label.textContent = name;
    const counter = document.createElement("span");
    counter.className = "count";
    counter.textContent = number(count);
    button.append(label, " ", counter);
    button.addEventListener("click", () => chooseCategory(slug));
    item.append(button);
    return item;
  }

  function renderChips() {
    const total = categories.reduce((sum, c) => sum + c.count, 0);
    ui.chips.replaceChildren(
      chip(null, t("all"), total, 0),
      ...categories.map((c, i) => chip(c.slug, c.name, c.count, i + 1)),
    );
    ui.moreCategories.hidden = categories.length + 1 <= VISIBLE_CHIPS;
    markChips();
  }

  function markChips() {
    const active = view.kind === "search" || view.kind === "fixed" ? undefined : view.category || "";
    for (const button of ui.chips.querySelectorAll(".chip")) {
      button.setAttribute("aria-pressed", String(button.dataset.slug === active));
    }
  }

  function chooseCategory(slug) {
    clearTimeout(debounceTimer);
    ui.query.value = "";
    sentQuery = "";
    load({ kind: "browse", category: slug, page: 1 });
  }

  ui.moreCategories.addEventListener("click", () => {
    const expanded = ui.moreCategories.getAttribute("aria-expanded") !== "true";
    ui.moreCategories.setAttribute("aria-expanded", String(expanded));
    ui.chips.classList.toggle("expanded", expanded);
    ui.moreCategories.textContent = t(expanded ? "fewer_categories" : "more_categories");
    for (const item of ui.chips.querySelectorAll("li.extra")) {
      item.hidden = !expanded && item.querySelector(".chip").getAttribute("aria-pressed") !== "true";
    }
  });

  // The grid ------------------------------------------------------------------

  function request(of) {
    if (of.kind === "search") return [settings.api.search, { q: of.query, page: of.page, limit: PAGE_SIZE }];
    if (of.kind === "random") return [settings.api.random, { count: RANDOM_COUNT, seed: of.seed, category: of.category }];
    return [settings.api.kaomojis, { page: of.page, limit: PAGE_SIZE, category: of.category }];
  }

  function headingText(of) {
    if (of.kind === "search") return t("heading_search", { query: of.query });
    if (of.kind === "random") return t("heading_random");
    const category = categories.find((c) => c.slug === of.category);
    return category ? category.name : t("heading_all");
  }

  async function load(next, { append = false, focusNew = false, record: recorded = true } = {}) {
    const address = addressOf(next);
    if (fixedPage && address && !append) {
      location.assign(address);
      return;
    }
    if (recorded && !append) record({ view: next }, address);
    gridRequest?.abort();
    clearTimeout(retryTimer);
    const controller = new AbortController();
    gridRequest = controller;
    view = next;
    markChips();
    ui.results.setAttribute("aria-busy", "true");
    try {
      const [path, params] = request(next);
      const body = await api(path, params, controller.signal);
      hideNotice();
      const before = ui.results.querySelectorAll(".card").length;
      render(body.data, append);
      const pages = body.pagination;
      ui.more.hidden = !pages || pages.page >= pages.total_pages;
      if (ui.pager) ui.pager.hidden = true;
      const count = pages ? pages.total : body.data.length;
      ui.heading.textContent = `${headingText(next)} · ${t("count", { count: number(count) })}`;
      if (!append) document.title = `${headingText(next)} · ${t("title")}`;
      if (!body.data.length) announce(t("no_results"));
      else if (!append) announce(ui.heading.textContent);
      if (focusNew) ui.results.querySelectorAll(".card")[before]?.querySelector(".face")?.focus();
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof TooManyRequests) {
        showNotice(t("slow_down", { seconds: number(error.seconds) }));
        // Try the same request again once the wait is over, unless something newer was asked for.
        retryTimer = setTimeout(() => { if (view === next) load(next, { append, focusNew }); }, error.seconds * 1000);
      } else {
        showNotice(t("error", { detail: error.message }));
      }
    } finally {
      if (gridRequest === controller) ui.results.setAttribute("aria-busy", "false");
    }
  }

  function faceText(entry, className) {
    const text = document.createElement("span");
    text.className = className;
    text.classList.toggle("wide", entry.display_width >= WIDE && entry.display_width < VERY_WIDE);
    text.classList.toggle("very-wide", entry.display_width >= VERY_WIDE);
    text.classList.toggle("cjk", entry.needs_cjk_font);
    text.textContent = entry.text;
    return text;
  }

  // A card: the face copies it, "i" opens its details (a link to its page, for a new tab or no script).
  function card(entry) {
    const item = document.createElement("li");
    item.className = "card";
    item.dataset.id = entry.id;
    const face = document.createElement("button");
    face.type = "button";
    face.className = "face";
    face.setAttribute("aria-label", t("copy_face", { name: entry.name }));
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = entry.name;
    face.append(faceText(entry, "face-text"), name);
    const info = document.createElement("a");
    info.className = "info";
    info.href = kaomojiAddress(entry.id);
    info.textContent = "i";
    info.setAttribute("aria-label", t("details_for", { name: entry.name }));
    item.append(face, info);
    return wire(item, entry);
  }

  function wire(item, entry) {
    item.querySelector(".face").addEventListener("click", () => copy(entry, item));
    const info = item.querySelector(".info");
    info.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;  // a new tab or window
      event.preventDefault();
      openDetail(entry, info);
    });
    return item;
  }

  // The cards the server rendered, taken over as they are: no request, and nothing moves.
  function adoptCards() {
    for (const item of ui.results.querySelectorAll(".card")) {
      wire(item, {
        id: Number(item.dataset.id), category: item.dataset.category,
        text: item.querySelector(".face-text").textContent, name: item.querySelector(".name").textContent,
      });
    }
    if (initial.total_pages && initial.page < initial.total_pages) {
      ui.more.hidden = false;
      if (ui.pager) ui.pager.hidden = true;
    }
  }

  function render(entries, append) {
    const cards = entries.map(card);
    if (append) {
      ui.results.append(...cards);
    } else if (cards.length) {
      ui.results.replaceChildren(...cards);
    } else {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = t("no_results");
      ui.results.replaceChildren(empty);
    }
  }

  ui.more.addEventListener("click", () => load({ ...view, page: view.page + 1 }, { append: true, focusNew: true }));

  // Search, random ------------------------------------------------------------

  function runQuery() {
    clearTimeout(debounceTimer);
    const query = ui.query.value.trim();
    if (query === sentQuery) return;  // unchanged (a space typed, a key released): nothing to ask
    sentQuery = query;
    load(query ? { kind: "search", query, page: 1 } : { kind: "browse", category: null, page: 1 });
  }

  ui.query.addEventListener("input", () => {
    if (fixedPage) return;  // here a search opens the results page: on Enter, not while typing
    clearTimeout(debounceTimer);
    debounceTimer = setTimeout(runQuery, DEBOUNCE_MS);
  });
  ui.form.addEventListener("submit", (event) => { event.preventDefault(); runQuery(); });

  ui.random.addEventListener("click", () => {
    // A fresh seed per click; kept in the view, so switching language shows the same faces renamed.
    const seed = Math.random().toString(36).slice(2, 12);
    const category = view.kind === "search" || view.kind === "fixed" ? null : view.category;
    load({ kind: "random", seed, category, page: 1 });
  });

  // Copy ----------------------------------------------------------------------

  function copyByHand(text) {
    // For pages served over plain HTTP, where navigator.clipboard does not exist.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done;
  }

  async function copy(entry, item, region = null) {
    let done = false;
    try {
      await navigator.clipboard.writeText(entry.text);
      done = true;
    } catch {
      done = copyByHand(entry.text);
    }
    notify(done ? t("copied", { text: entry.text }) : t("copy_failed"), region);
    if (done && item) {
      item.classList.add("copied");
      setTimeout(() => item.classList.remove("copied"), 1200);
    }
  }

  // Status and notices ---------------------------------------------------------

  function announce(text) {
    // Cleared first, so the same message twice (the same face copied again) is read again.
    ui.status.textContent = "";
    requestAnimationFrame(() => { ui.status.textContent = text; });
  }

  function notify(text, near = null) {
    // Shown where the eye is: beside the button, in the dialog when it is open (the page behind it is inert),
    // else as a toast.
    const region = near || (ui.dialog.open ? ui.detailStatus : ui.toast);
    clearTimeout(toastTimer);
    for (const other of [ui.toast, ui.detailStatus, ui.entryStatus]) if (other) other.textContent = "";
    requestAnimationFrame(() => { region.textContent = text; });
    toastTimer = setTimeout(() => { region.textContent = ""; }, 2500);
  }

  function showNotice(text) {
    ui.notice.textContent = text;
    ui.notice.hidden = false;
  }

  function hideNotice() {
    ui.notice.hidden = true;
    ui.notice.textContent = "";
  }

  // Details -------------------------------------------------------------------

  function fillDetail(entry) {
    ui.detailStatus.textContent = "";
    ui.detailFace.replaceChildren(faceText(entry, "face-text"));
    ui.detailName.textContent = entry.name;
    const category = categories.find((c) => c.slug === entry.category);
    ui.detailCategory.textContent = t("category_is", { name: category ? category.name : entry.category });
    ui.detailNote.textContent = entry.note ?? t("loading");
    ui.detailUsage.replaceChildren(...(entry.usage || []).map((sentence) => {
      const line = document.createElement("li");
      line.textContent = sentence;
      return line;
    }));
    ui.detailKeywords.replaceChildren(...(entry.keywords || []).map((word) => {
      const keyword = document.createElement("li");
      keyword.textContent = word;
      return keyword;
    }));
  }

  async function openDetail(entry, opener, { record: recorded = true } = {}) {
    detailEntry = entry;
    ui.dialog.opener = opener;
    fillDetail(entry);
    if (!ui.dialog.open) ui.dialog.showModal();
    if (recorded) {
      const { id, text, name, category } = entry;
      record({ view, dialog: { id, text, name, category } }, kaomojiAddress(entry.id));
    }
    if (entry.note !== undefined && entry.usage) return;  // search results already carry them
    try {
      const full = (await api(`${settings.api.kaomojis}/${entry.id}`)).data;
      if (detailEntry === entry) fillDetail(full);
    } catch (error) {
      if (detailEntry !== entry) return;
      if (error instanceof TooManyRequests) {
        ui.detailNote.textContent = t("slow_down", { seconds: number(error.seconds) });
        setTimeout(() => { if (detailEntry === entry && ui.dialog.open) openDetail(entry, opener, { record: false }); }, error.seconds * 1000);
      } else {
        ui.detailNote.textContent = t("error", { detail: error.message });
      }
    }
  }

  ui.detailCopy.addEventListener("click", () => detailEntry && copy(detailEntry, null));
  ui.detailClose.addEventListener("click", () => ui.dialog.close());
  // A click on the backdrop (outside the dialog's box) closes it, as Escape does.
  ui.dialog.addEventListener("click", (event) => { if (event.target === ui.dialog) ui.dialog.close(); });
  ui.dialog.addEventListener("close", () => {
    detailEntry = null;
    ui.dialog.opener?.focus();
    // The dialog had the face's address: closing it goes back to the list's.
    if (history.state?.dialog) history.back();
  });

  // Back and forward: show what the address says.
  window.addEventListener("popstate", (event) => {
    const state = event.state;
    if (state?.dialog) {
      openDetail(state.dialog, null, { record: false });
      return;
    }
    if (ui.dialog.open) ui.dialog.close();
    if (!state?.view || fixedPage) return;
    if (JSON.stringify(state.view) !== JSON.stringify(view)) {
      ui.query.value = state.view.kind === "search" ? state.view.query : "";
      sentQuery = ui.query.value;
      load(state.view, { record: false });
    }
  });

  if (ui.entryCopy) {
    ui.entryCopy.hidden = false;
    ui.entryCopy.addEventListener("click", () => copy(initial, null, ui.entryStatus));
  }

  // Start -----------------------------------------------------------------------

  ui.language.addEventListener("change", () => setLocale(ui.language.value, true));

  async function start() {
    fillLanguageMenu();
    ui.language.value = locale;
    adoptCards();
    if (!fixedPage) history.replaceState({ view }, "", location.href);
    try {
      messages = await (await fetch(settings.i18n)).json();
    } catch {
      messages = {};  // the page keeps the labels it came with
    }
    // The address names the language; only the bare address (/) follows the reader's choice or browser.
    const wanted = location.pathname === "/" ? firstLocale() : settings.locale;
    if (wanted !== settings.locale) {
      await setLocale(wanted, false);
      return;
    }
    applyLabels();
    await loadCategories();
  }

  start();
})();
