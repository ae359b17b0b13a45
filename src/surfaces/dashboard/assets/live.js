// Keeps an open dashboard page current without reloading it. The page's live region names the
// team's event stream; on each event the page is fetched again and the region swapped. Forms
// marked data-live-form are posted in the background and the answer's region shown in place.
// Without JavaScript the same page and forms work as plain HTML.
(() => {
  const region = document.getElementById('live');
  if (!region || !('EventSource' in window) || !('fetch' in window)) return;
  let timer = null;
  let busy = false;
  let again = false;
  let held = false;

  function freshRegion(text) {
    return new DOMParser().parseFromString(text, 'text/html').getElementById('live');
  }

  // Someone typing in the region keeps their text: the swap waits until they leave the field.
  function typing() {
    const el = document.activeElement;
    if (!el || !region.contains(el)) return false;
    return el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !['hidden', 'submit', 'button'].includes(el.type) && el.value !== '');
  }

  function swap(fresh) {
    if (!fresh) return;
    if (typing()) {
      held = true;
      return;
    }
    region.innerHTML = fresh.innerHTML;
    region.dataset.refreshed = String(Date.now());
  }

  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const res = await fetch(location.pathname + location.search, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (res.ok) swap(freshRegion(await res.text()));
    } catch {
      // Offline for a moment: the next event or reconnect fetches again.
    } finally {
      busy = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  }

  function soon() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 50);
  }

  region.addEventListener('focusout', () => {
    if (held) {
      held = false;
      soon();
    }
  });

  const stream = new EventSource(region.dataset.events);
  let opened = false;
  stream.addEventListener('open', () => {
    // After a reconnect, events may have been missed: catch up once.
    if (opened) soon();
    opened = true;
  });
  stream.addEventListener('team', soon);
  stream.addEventListener('closed', () => {
    stream.close();
    const p = document.createElement('p');
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = 'This page no longer updates: you are no longer a member of this team, or you signed out.';
    region.prepend(p);
  });

  document.addEventListener('submit', async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-live-form') || !region.contains(form)) return;
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form, event.submitter));
    try {
      const res = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin' });
      const fresh = freshRegion(await res.text());
      if (fresh) region.innerHTML = fresh.innerHTML;
      else location.reload();
    } catch {
      form.submit();
    }
  });
})();
