extension ConsoleAssets {
    /// Light and dark from `prefers-color-scheme`; one column on a phone, wider on a wall screen;
    /// a visible focus ring for keyboard use; rows that failed verification marked by a border
    /// and a label, not by colour alone.
    static let stylesheet = #"""
        :root { --bg: #fbfbf8; --fg: #1d1f21; --muted: #5f6368; --line: #d9d9d2; --accent: #1a5fb4;
          --bad: #b3261e; --bad-bg: #fdecea; --ok: #1e7e34; --card: #ffffff; color-scheme: light dark; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #16181a; --fg: #e8e6e3; --muted: #a0a4a8; --line: #34383c; --accent: #8ab4f8;
            --bad: #f28b82; --bad-bg: #3b1f1d; --ok: #81c995; --card: #1f2225; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.45 system-ui, sans-serif; }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .bar { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .5rem 1rem;
          border-bottom: 1px solid var(--line); }
        .brand { font-weight: 700; text-decoration: none; }
        nav { display: flex; flex-wrap: wrap; gap: .25rem .75rem; }
        nav a[aria-current] { font-weight: 700; text-decoration: none; }
        .signout { margin-left: auto; color: var(--muted); }
        main { padding: 1rem; max-width: 110rem; margin: 0 auto; }
        h1 { font-size: 1.4rem; margin: .25rem 0 1rem; }
        h2 { font-size: 1.15rem; }
        table { width: 100%; border-collapse: collapse; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        td.text { white-space: pre-wrap; overflow-wrap: anywhere; }
        tr.untrusted { background: var(--bad-bg); }
        tr.untrusted td:first-child { border-left: 4px solid var(--bad); }
        .flag { font-size: .8rem; font-weight: 700; color: var(--bad); text-transform: uppercase; }
        tr.new { animation: arrive 1.5s ease-out; }
        @keyframes arrive { from { background: var(--line); } }
        @media (prefers-reduced-motion: reduce) { tr.new { animation: none; } }
        .banner { padding: .6rem .8rem; border-radius: .3rem; border: 1px solid var(--line); }
        .banner.problem { border-color: var(--bad); background: var(--bad-bg); }
        .banner.notice { border-color: var(--ok); }
        .filters, .send, .login, .add { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin-bottom: 1rem; }
        .send, .login { flex-direction: column; align-items: stretch; max-width: 40rem; }
        label { display: flex; flex-direction: column; gap: .2rem; color: var(--muted); }
        input, select, textarea, button { font: inherit; color: inherit; background: var(--card); border: 1px solid var(--line);
          border-radius: .3rem; padding: .35rem .5rem; }
        button { cursor: pointer; border-color: var(--accent); }
        form.inline { display: inline; }
        fieldset { display: flex; flex-wrap: wrap; gap: .25rem 1rem; border: 1px solid var(--line); border-radius: .3rem; margin: 0; }
        label.check { flex-direction: row; align-items: center; gap: .35rem; color: inherit; }
        code.secret { overflow-wrap: anywhere; user-select: all; font-size: 1.05rem; }
        td.url { overflow-wrap: anywhere; }
        .counter.over { color: var(--bad); font-weight: 700; }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 1rem; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: .4rem; padding: .5rem 1rem; }
        .card.down { border-color: var(--bad); }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; overflow-wrap: anywhere; }
        .counts { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; padding: 0; }
        .none, .version, .retry-note { color: var(--muted); }
        @media (max-width: 40rem) {
          thead { display: none; }
          tr, td { display: block; border: 0; }
          tr { border-bottom: 1px solid var(--line); padding: .4rem 0; }
          td { padding: .1rem .25rem; }
        }
        """#
}
