// The one way the scripts fill a text's %(name)s placeholders: the texts come translated from the server in data-*
// attributes, so no page loads Django's JavaScript catalogue; this is its interpolate(fmt, obj, named) for named
// placeholders, under the same name. A placeholder with no value is left as it is. Loaded first by base.html and by
// the venue screen.
(function () {
  "use strict";
  window.interpolate = function (fmt, values) {
    return String(fmt).replace(/%\((\w+)\)s/g, function (match, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : match;
    });
  };
})();
