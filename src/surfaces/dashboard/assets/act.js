// The controls of a public record page (bill, person, committee, meeting). The page itself is the
// same cached answer for everyone; this script asks /act/{type}/{ref}/abilities (no-store) what the
// signed-in person and each of their teams may do here, renders those forms, and performs them
// through v2 with the session and its CSRF token — the same operations as every other surface.
// Without JavaScript the panel's link opens the team's view of the record in the dashboard.
(() => {
  const panel = document.querySelector('[data-act-type]');
  if (!panel || !('fetch' in window)) return;
  const type = panel.dataset.actType;
  const ref = panel.dataset.actRef;
  const controls = panel.querySelector('[data-act-controls]');
  const status = panel.querySelector('[data-act-status]');
  const fallback = panel.querySelector('[data-act-fallback]');
  let csrf = '';
  let n = 0;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c) e.append(c);
    return e;
  }

  async function v2(method, path, body, teamId) {
    const headers = { accept: 'application/json', 'x-csrf-token': csrf };
    if (body) headers['content-type'] = 'application/json';
    if (teamId) headers['x-team-id'] = teamId;
    if (method !== 'DELETE') headers['idempotency-key'] = crypto.randomUUID();
    const res = await fetch(`/api/v2${path}`, { method, credentials: 'same-origin', headers, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) {
      let message = `${res.status} ${res.statusText}`;
      try {
        message = (await res.json()).error.message;
      } catch {}
      throw new Error(message);
    }
  }

  /** A form whose submit performs `run` and then shows the record's state again. */
  function form(label, run, done, ...fields) {
    const f = el('form', { class: fields.length ? 'block' : null }, ...fields, el('button', { type: 'submit', text: label }));
    f.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = f.querySelector('button');
      button.disabled = true;
      status.textContent = 'Saving…';
      try {
        await run(new FormData(f));
        status.textContent = done;
        await load();
      } catch (err) {
        status.textContent = `Not done: ${err.message}`;
        button.disabled = false;
      }
    });
    return f;
  }

  function labelled(text, control) {
    const id = `act-${++n}`;
    control.id = id;
    return el('span', {}, el('label', { for: id, text }), control);
  }

  function followForm(a, follow, who, teamId) {
    const path = teamId ? '/team/follows' : '/me/follows';
    if (follow) return form(`Stop following (${who})`, () => v2('DELETE', `${path}/${encodeURIComponent(follow.id)}`, null, teamId), 'No longer followed.');
    return form(`Follow (${who})`, () => v2('POST', path, { type: a.record.followType, refId: a.record.ref }, teamId), 'Followed.');
  }

  function teamSection(a, t) {
    const s = el('section', { 'aria-label': `Team ${t.name}` }, el('h3', { text: `Team ${t.name}` }));
    const rec = encodeURIComponent(a.record.ref);
    if (t.may.follow) s.append(followForm(a, t.follow, t.name, t.id));
    else if (t.follow) s.append(el('p', { text: 'The team follows this.' }));
    if (a.record.type === 'matter') {
      const stanceText = t.stance === 'supports' ? 'Supports' : t.stance === 'opposes' ? 'Opposes' : 'No stance yet';
      s.append(
        el(
          'p',
          { 'data-stance': t.stance || 'none' },
          el('strong', { text: 'Team stance: ' }),
          el('span', { class: t.stance ? `stance-${t.stance}` : 'muted', text: stanceText }),
        ),
      );
      if (t.may.stance) {
        for (const [value, label] of [
          ['supports', 'Support'],
          ['opposes', 'Oppose'],
        ]) {
          if (t.stance !== value) s.append(form(label, () => v2('PUT', `/team/legislation/${rec}/stance`, { stance: value }, t.id), `Stance: ${label}.`));
        }
      }
      s.append(el('h4', { text: 'Target list' }));
      if (t.targets.length) {
        const list = el('ul');
        for (const target of t.targets) {
          const item = el(
            'li',
            { 'data-person': target.personId },
            `${target.ward ? `Ward ${target.ward}: ` : ''}${target.name} — ${target.contacted ? 'contacted' : 'not contacted yet'}; ${target.votes.length ? `voted ${target.votes.join(', ')}` : 'no recorded vote'} `,
          );
          if (t.may.contacted && !target.contacted) {
            const pid = encodeURIComponent(target.personId);
            item.append(
              form(`Mark ${target.name} contacted`, () => v2('POST', `/team/legislation/${rec}/targets/${pid}/contacted`, null, t.id), 'Marked contacted.'),
            );
          }
          list.append(item);
        }
        s.append(list);
      } else s.append(el('p', { class: 'muted', text: 'No one on the list yet.' }));
      if (t.may.targets) {
        const listed = new Set(t.targets.map((x) => x.personId));
        const select = el('select', { name: 'personId' });
        for (const p of a.alderpersons)
          if (!listed.has(p.id)) select.append(el('option', { value: p.id, text: `${p.ward ? `Ward ${p.ward}: ` : ''}${p.name}` }));
        s.append(
          form(
            'Add to the target list',
            (d) => v2('POST', `/team/legislation/${rec}/targets`, { personIds: [d.get('personId')] }, t.id),
            'Added.',
            labelled('Alderperson ', select),
          ),
        );
      }
    }
    if (a.record.type === 'person' && t.may.targets && t.bills.length) {
      const select = el('select', { name: 'record' });
      for (const b of t.bills) select.append(el('option', { value: b.recordNumber, text: `${b.recordNumber}${b.title ? `: ${b.title.slice(0, 80)}` : ''}` }));
      s.append(
        form(
          'Add to this bill’s target list',
          (d) => v2('POST', `/team/legislation/${encodeURIComponent(d.get('record'))}/targets`, { personIds: [a.record.ref] }, t.id),
          'Added to the target list.',
          labelled('Bill ', select),
        ),
      );
    }
    if (t.may.note) {
      const area = el('textarea', { name: 'body', rows: '2', maxlength: '10000', required: true });
      s.append(
        form(
          'Add team note',
          (d) => v2('POST', '/team/notes', { body: d.get('body'), subject: { type: a.record.type, refId: a.record.ref } }, t.id),
          'Note added.',
          labelled(`Note for ${t.name} about this `, area),
        ),
      );
    }
    s.append(el('p', {}, el('a', { href: t.view, text: `Open in ${t.name}’s dashboard (notes and history)` })));
    return s;
  }

  // The page is the same for everyone and its header says "Sign in"; a signed-in person gets the
  // header of the signed-in pages instead (Dashboard or one link per team, and Account).
  function signedInHeader(teams) {
    const you = document.querySelector('header.site .you');
    if (!you || you.dataset.signedIn) return;
    const links = teams.map((t) => el('a', { href: `/dashboard/${encodeURIComponent(t.id)}`, text: teams.length === 1 ? 'Dashboard' : `${t.name} dashboard` }));
    you.replaceChildren(...links, el('a', { href: '/account', text: 'Account' }));
    you.dataset.signedIn = 'true';
  }

  function render(a) {
    csrf = a.csrfToken || '';
    const parts = [];
    if (!a.signedIn) {
      parts.push(el('p', {}, el('a', { href: a.signIn, text: 'Sign in' }), ' to follow this, or to work on it with your team.'));
    } else {
      if (a.personal.may.follow)
        parts.push(el('section', { 'aria-label': 'Just you' }, el('h3', { text: 'Just you' }), followForm(a, a.personal.follow, 'just me')));
      for (const t of a.teams) parts.push(teamSection(a, t));
      if (!parts.length) parts.push(el('p', { text: 'Nothing to do here for you yet.' }));
    }
    controls.replaceChildren(...parts);
    if (a.signedIn) signedInHeader(a.teams);
    if (fallback && a.signedIn) fallback.hidden = true;
    panel.dataset.actReady = 'true';
  }

  // A busy server answers 503 with Retry-After (README, request budget): ask again, a few times.
  async function load(tries = 4) {
    const res = await fetch(`/act/${type}/${encodeURIComponent(ref)}/abilities`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (res.ok) return render(await res.json());
    if (res.status === 503 && tries > 1) {
      const wait = Math.min(10, Number(res.headers.get('retry-after')) || 1);
      await new Promise((r) => setTimeout(r, wait * 1000));
      return load(tries - 1);
    }
  }

  load().catch(() => {});
})();
