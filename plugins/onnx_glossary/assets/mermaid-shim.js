// mkdocs-material draws ```mermaid fences through a global `mermaid` (initialize, then render)
// and loads one from a CDN when none exists. This stand-in keeps that contract and imports the
// self-hosted ESM build on first use, so pages without a diagram fetch none of its 5 MB and no
// page ever asks another origin.
(() => {
  const base = new URL("../mermaid/", document.currentScript.src);
  let options = {};
  let loading = null;
  const load = () => {
    loading ??= import(new URL("mermaid.esm.min.mjs", base).href).then(({ default: mermaid }) => {
      mermaid.initialize(options);
      return mermaid;
    });
    return loading;
  };
  window.mermaid = {
    initialize(next) {
      options = next;
      if (loading) loading.then((mermaid) => mermaid.initialize(next));
    },
    async render(id, text) {
      return (await load()).render(id, text);
    },
  };
})();
