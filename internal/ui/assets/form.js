// The run form asks the server, as its fields change, for the equivalent
// command line and for what the command line would say of it: the page
// never checks a value itself, so it refuses exactly what dbgauge does.
(function () {
  const form = document.getElementById('run');
  const command = document.getElementById('command');
  const problem = document.getElementById('problem');
  if (!form || !command || !problem) return;
  let timer, asked = 0;
  const ask = () => {
    const n = ++asked;
    fetch(form.dataset.check, {
      method: 'POST',
      headers: {Accept: 'application/json'},
      // The files are sent when the form is: the check asks with the rest.
      body: new URLSearchParams([...new FormData(form)].filter(([, v]) => typeof v === 'string')),
    }).then(r => r.ok ? r.json() : null).then(j => {
      if (!j || n !== asked) return; // a later answer is on its way
      command.textContent = j.command;
      problem.textContent = j.problem;
      problem.hidden = !j.problem;
    }).catch(() => {});
  };
  form.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(ask, 250); });
})();
