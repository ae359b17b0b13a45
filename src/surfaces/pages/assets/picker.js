// Makes every [data-picker] field a combobox over the public search (WAI-ARIA APG, "Combobox With
// Listbox Popup"): typing lists matches from /pick/search; Down and Up move through them
// (aria-activedescendant), Enter or a click chooses, Escape closes the list (and, closed, clears
// the text). Choosing fills the hidden field the form sends. Listeners sit on the document, so a
// region swapped in by live.js works without setting anything up again. Without this script the
// typed text is sent and the server resolves it, and the field's link opens a search page.
(() => {
  if (!('fetch' in window)) return;
  const timers = new WeakMap();
  let serial = 0;

  const partsOf = (input) => {
    const box = input.closest('[data-picker]');
    if (!box) return null;
    return {
      box,
      input,
      hidden: box.querySelector('[data-pick-value]'),
      list: box.querySelector('[role="listbox"]'),
      status: box.querySelector('[data-pick-status]'),
    };
  };
  const options = (p) => [...p.list.querySelectorAll('[role="option"]')];

  function close(p) {
    p.list.hidden = true;
    p.input.setAttribute('aria-expanded', 'false');
    p.input.removeAttribute('aria-activedescendant');
  }

  function activate(p, index) {
    const all = options(p);
    for (const [i, o] of all.entries()) o.setAttribute('aria-selected', String(i === index));
    const active = all[index];
    if (active) {
      p.input.setAttribute('aria-activedescendant', active.id);
      active.scrollIntoView({ block: 'nearest' });
    } else p.input.removeAttribute('aria-activedescendant');
  }

  function choose(p, option) {
    p.input.value = option.dataset.label;
    p.hidden.value = option.dataset.value;
    close(p);
    p.status.textContent = `Chosen: ${option.dataset.label}`;
  }

  async function lookup(p) {
    const q = p.input.value.trim();
    if (q.length < 2) {
      close(p);
      return;
    }
    const mine = ++serial;
    p.input.dataset.serial = String(mine);
    let data = [];
    try {
      const res = await fetch(`/pick/search?${new URLSearchParams({ types: p.box.dataset.types, q })}`, { headers: { accept: 'application/json' } });
      if (res.ok) data = (await res.json()).data;
    } catch {
      return;
    }
    // An answer to an older query is dropped: the person has typed on since.
    if (p.input.dataset.serial !== String(mine)) return;
    p.list.replaceChildren(
      ...data.map((r, i) => {
        const li = document.createElement('li');
        li.id = `${p.list.id}-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        li.dataset.value = r.value;
        li.dataset.label = r.label;
        li.textContent = r.label;
        if (r.detail) {
          const small = document.createElement('span');
          small.className = 'muted';
          small.textContent = ` ${r.detail}`;
          li.append(small);
        }
        return li;
      }),
    );
    const open = data.length > 0;
    p.list.hidden = !open;
    p.input.setAttribute('aria-expanded', String(open));
    p.input.removeAttribute('aria-activedescendant');
    p.status.textContent = open ? `${data.length} matches; use the arrow keys to choose.` : 'No matches.';
  }

  document.addEventListener('input', (event) => {
    const p = event.target instanceof HTMLInputElement && event.target.getAttribute('role') === 'combobox' ? partsOf(event.target) : null;
    if (!p) return;
    // What was chosen no longer matches the text: the choice is made again.
    p.hidden.value = '';
    clearTimeout(timers.get(p.input));
    timers.set(
      p.input,
      setTimeout(() => lookup(p), 150),
    );
  });

  document.addEventListener('keydown', (event) => {
    const p = event.target instanceof HTMLInputElement && event.target.getAttribute('role') === 'combobox' ? partsOf(event.target) : null;
    if (!p) return;
    const all = options(p);
    const current = all.findIndex((o) => o.getAttribute('aria-selected') === 'true');
    const open = !p.list.hidden;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        if (all.length) {
          p.list.hidden = false;
          p.input.setAttribute('aria-expanded', 'true');
        } else void lookup(p);
        return;
      }
      const next = event.key === 'ArrowDown' ? (current + 1) % all.length : (current - 1 + all.length) % all.length;
      activate(p, next);
    } else if (event.key === 'Enter' && open && current >= 0) {
      event.preventDefault();
      choose(p, all[current]);
    } else if (event.key === 'Escape') {
      if (open) close(p);
      else {
        p.input.value = '';
        p.hidden.value = '';
      }
    }
  });

  document.addEventListener('mousedown', (event) => {
    const option = event.target instanceof Element ? event.target.closest('[data-picker] [role="option"]') : null;
    if (!option) return;
    // Chosen before the input loses focus (a blur would close the list first).
    event.preventDefault();
    const p = partsOf(option.closest('[data-picker]').querySelector('[role="combobox"]'));
    choose(p, option);
  });

  document.addEventListener('focusout', (event) => {
    const p = event.target instanceof HTMLInputElement && event.target.getAttribute('role') === 'combobox' ? partsOf(event.target) : null;
    if (p) close(p);
  });
})();
