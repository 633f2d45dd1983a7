// Progressive enhancement only: every page works without this file.
(function () {
  'use strict';

  // Copy buttons: <button data-copy-target="id">; the target's value or text.
  document.addEventListener('click', function (event) {
    var button =
      event.target.closest && event.target.closest('[data-copy-target]');
    if (!button) return;
    var target = document.getElementById(
      button.getAttribute('data-copy-target'),
    );
    if (!target) return;
    var text = 'value' in target ? target.value : target.textContent;
    var label = button.querySelector('.copy-label') || button;
    var original = label.textContent;
    function done(message) {
      label.textContent = message;
      var status = document.getElementById('copy-status');
      if (status) status.textContent = message;
      setTimeout(function () {
        label.textContent = original;
      }, 2000);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () {
          done('Copied');
        },
        function () {
          fallback();
        },
      );
    } else fallback();
    function fallback() {
      if (typeof target.select === 'function') target.select();
      try {
        document.execCommand('copy');
        done('Copied');
      } catch (e) {
        done('Press Ctrl+C to copy');
      }
    }
  });

  // Forms that ask first: <form data-confirm="question">.
  document.addEventListener('submit', function (event) {
    var message =
      event.target.getAttribute && event.target.getAttribute('data-confirm');
    if (message && !window.confirm(message)) event.preventDefault();
  });

  // Selects that submit their form on change (the form keeps its button).
  document
    .querySelectorAll('select[data-autosubmit]')
    .forEach(function (select) {
      select.addEventListener('change', function () {
        if (select.form)
          select.form.requestSubmit
            ? select.form.requestSubmit()
            : select.form.submit();
      });
    });

  // Lists that refresh themselves (first page only, never while typing).
  document.documentElement.classList.add('js');
  var refresh = document.querySelector('[data-auto-refresh]');
  if (refresh && !/[?&]cursor=/.test(location.search)) {
    var seconds = Number(refresh.getAttribute('data-auto-refresh')) || 30;
    setInterval(function () {
      var active = document.activeElement;
      var typing = active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
      if (document.visibilityState === 'visible' && !typing) location.reload();
    }, seconds * 1000);
  }

  // Relative times stay fresh while the page is open.
  var units = [
    ['year', 31536000],
    ['month', 2592000],
    ['week', 604800],
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ];
  function relative(date) {
    var seconds = Math.round((Date.now() - date.getTime()) / 1000);
    var abs = Math.abs(seconds);
    if (abs < 45) return 'just now';
    for (var i = 0; i < units.length; i++) {
      var n = Math.floor(abs / units[i][1]);
      if (n >= 1) {
        var text = n + ' ' + units[i][0] + (n === 1 ? '' : 's');
        return seconds >= 0 ? text + ' ago' : 'in ' + text;
      }
    }
    return 'just now';
  }
  setInterval(function () {
    document.querySelectorAll('time[datetime]').forEach(function (el) {
      var date = new Date(el.getAttribute('datetime'));
      if (!isNaN(date.getTime())) el.textContent = relative(date);
    });
  }, 30000);
})();
