class CatalogError extends Error {
  constructor(code, message, extras = {}) {
    super(message);
    this.code = code;
    this.name = "CatalogError";
    this.file = extras.file;
    this.choices = extras.choices;
  }
  code;
  file;
  choices;
}
export {
  CatalogError
};
//# sourceMappingURL=errors.js.map
