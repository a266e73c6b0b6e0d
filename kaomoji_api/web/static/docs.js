// The interactive API docs: Swagger UI over this service's own OpenAPI document.
// No validator badge and no top bar, so nothing is fetched from anywhere but this origin.
"use strict";

window.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: true,
    validatorUrl: null,
  });
});
