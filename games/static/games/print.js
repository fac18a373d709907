// The printed pages' "print" button: a script of its own, since the Content-Security-Policy
// refuses javascript: links and inline handlers.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll('[data-action="print"]').forEach((button) => {
    button.addEventListener("click", () => window.print());
  });
});
