/** The readable text of a message: shared with the CLI and the HTML report (src/view/messageText.ts). */
export { messagePreview, messageText } from '../../../src/view';
