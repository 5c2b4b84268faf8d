// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LessonPanel: the list of one-click lessons and, beside the run, the chosen lesson's misconception, what
// the run shows and what to look at. It knows only titles and text; applying a lesson is the app's job.

#include <QWidget>

class QListWidget;
class QPushButton;
class QTextBrowser;

namespace specdec::gui {

class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    struct Entry
    {
        QString title;
        QString html; ///< misconception, answer, what to look at
    };

    explicit LessonPanel(QWidget *parent = nullptr);

    void setLessons(const QList<Entry> &lessons);
    int currentLesson() const;
    void setCurrentLesson(int index);
    QString explanationText() const;

signals:
    void applyRequested(int index);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void showLesson(int index);

    QListWidget *m_list;
    QTextBrowser *m_text;
    QPushButton *m_apply;
    QList<Entry> m_lessons;
};

} // namespace specdec::gui
